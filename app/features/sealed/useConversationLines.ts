import { useMemo } from "react";
import type { MemberNotice } from "~/features/members/types";
import type { Channel } from "~/conversation/channels/types";
import type { SealedStatus } from "~/conversation/mls/types";
import { removedByAdministrator } from "~/conversation/senders/words";

/**
 * The open conversation's lines among its messages: the members' comings and goings, and, in a sealed
 * channel or a direct conversation, the people an administrator deactivated whose devices its group
 * lost (at the time this page removed them, not above every message). Someone who started a one-to-one
 * again is not said to have joined until let back in (`returning`, ADR 0098). A one-to-one whose other
 * person is deactivated ends with their removal, also on a page that did not remove them itself (after
 * a reload): nothing can be written there since. The same list while nothing changes (a new one would
 * draw the conversation's lines again).
 */
export function useConversationLines(
  notices: MemberNotice[],
  returning: readonly string[],
  removedByAdmin: SealedStatus["removedByAdmin"],
  channel: Pick<Channel, "id" | "name" | "oneToOne" | "partnerDeactivated"> | null,
): MemberNotice[] {
  // (by its ids: the list of those returning is a new one at each reading of the status)
  const back = returning.join(",");
  const partnerRemoved = channel?.oneToOne && channel.partnerDeactivated ? channel.name : null;
  return useMemo(() => {
    const ids = back ? back.split(",") : [];
    const shown = ids.length > 0 ? notices.filter((n) => !ids.some((id) => n.id.startsWith(`joined:${id}:`))) : notices;
    const removals = (removedByAdmin ?? []).map((r) => ({
      id: `removed:${r.userId}:${r.at}`,
      text: removedByAdministrator(r.name),
      created: r.at,
    }));
    // (after every message: its time is now)
    if (partnerRemoved && removals.length === 0 && !shown.some((n) => n.id.startsWith("removed:")))
      removals.push({ id: "removed:partner", text: removedByAdministrator(partnerRemoved), created: new Date().toISOString() });
    return removals.length > 0 ? [...shown, ...removals] : shown;
  }, [notices, back, removedByAdmin, partnerRemoved]);
}
