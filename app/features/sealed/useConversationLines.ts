import { useMemo } from "react";
import type { MemberNotice } from "~/features/members/types";
import type { SealedStatus } from "~/conversation/mls/types";
import { removedByAdministrator } from "~/conversation/senders/words";

/**
 * The open conversation's lines among its messages: the members' comings and goings, and, in a sealed
 * channel or a direct conversation, the people an administrator deactivated whose devices its group
 * lost (at the time this page removed them, not above every message). Someone who started a one-to-one
 * again is not said to have joined until let back in (`returning`, ADR 0098). The same list while
 * nothing changes (a new one would draw the conversation's lines again).
 */
export function useConversationLines(
  notices: MemberNotice[],
  returning: readonly string[],
  removedByAdmin: SealedStatus["removedByAdmin"],
): MemberNotice[] {
  // (by its ids: the list of those returning is a new one at each reading of the status)
  const back = returning.join(",");
  return useMemo(() => {
    const ids = back ? back.split(",") : [];
    const shown = ids.length > 0 ? notices.filter((n) => !ids.some((id) => n.id.startsWith(`joined:${id}:`))) : notices;
    if (!removedByAdmin?.length) return shown;
    const removals = removedByAdmin.map((r) => ({
      id: `removed:${r.userId}:${r.at}`,
      text: removedByAdministrator(r.name),
      created: r.at,
    }));
    return [...shown, ...removals];
  }, [notices, back, removedByAdmin]);
}
