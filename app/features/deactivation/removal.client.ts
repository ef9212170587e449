/**
 * A member of one of the user's conversations was deactivated by an administrator (a live event,
 * pocketbase/deactivated.go): in a sealed channel or a direct conversation this page commits the
 * removal of all their devices from its MLS group, so nothing sent afterwards can be read by them, and
 * the conversation says "<name> was removed by an administrator" (ADR 0056). Every online member's page
 * tries; the first commit wins and the others find nothing left to remove.
 */
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { joinProofOf } from "~/conversation/conversation.client";
import { sealedChannel } from "~/conversation/mls/sealed.client";

const ATTEMPTS = 4;
const FIRST_RETRY_MS = 1_000;

export async function memberDeactivated(
  user: SessionUser,
  channel: Channel,
  event: { userId: string; name: string; epoch?: number; generation?: number },
): Promise<void> {
  if (!channel.sealed && !channel.direct) return;
  // A busy server (many conversations at once) may refuse a request: tried again, later each time.
  for (let attempt = 1; ; attempt++) {
    try {
      const runtime = await sealedChannel(user, channel, joinProofOf(channel));
      // (the group's epoch as the event named it, on the first try only: a retry follows a refusal)
      const group = attempt === 1 && event.epoch !== undefined ? { epoch: event.epoch, generation: event.generation ?? 0 } : undefined;
      return await runtime.removeDeactivated(event.userId, event.name, group);
    } catch (error) {
      if (attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, FIRST_RETRY_MS * 2 ** (attempt - 1)));
    }
  }
}
