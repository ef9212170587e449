import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import type { DecryptedMessage } from "~/conversation/messages/decrypted";
import { decryptRecords } from "~/conversation/messages/open.client";
import { fetchThread } from "~/features/threads/fetch.client";

/**
 * The first message of a thread whose reply arrived live while the conversation shows no such message:
 * in a sealed channel or a direct conversation, one sent before this device joined stands in for it
 * (conversation/messages/unreadable.ts). Null when it is readable after all (the page's history brings
 * it), elsewhere, or gone.
 */
export async function rootStandIn(user: SessionUser, channel: Channel, rootId: string): Promise<DecryptedMessage | null> {
  if (!channel.sealed && !channel.direct) return null;
  const found = await fetchThread(channel.id, rootId);
  const record = found.messages.find((m) => m.id === rootId);
  if (!record) return null;
  const { messages } = await decryptRecords(user, channel, [record], undefined, { isThreadRoot: (id) => id === rootId });
  return messages.find((m) => m.id === rootId && m.unreadable) ?? null;
}
