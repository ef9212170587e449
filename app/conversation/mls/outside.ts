import type { SealedStatus } from "./types";

/**
 * Who is a member of a one-to-one on the server but off the list a page trusts (ADR 0098): on the
 * page of the person who stayed, the other one, back after leaving or being deactivated (`returning`,
 * let back in with that page's consent: the server alone never puts anyone on the list); on the page of
 * the one back, whose device the list left out, the person who lets them back in (`letBackBy`); and
 * whether the list is the viewer alone (`partnerGone`: the other person left and is not back yet).
 */
export function outsideOf(
  channel: { oneToOne?: boolean },
  guard: { unlisted(memberIds: readonly string[]): string[]; trusted: { users: string[] } | null } | null,
  removed: boolean,
  memberIds: readonly string[],
  userId: string,
): Pick<SealedStatus, "returning" | "letBackBy" | "partnerGone"> {
  if (!channel.oneToOne || !guard) return { returning: [], letBackBy: undefined, partnerGone: false };
  // (removed from the group, or still in it with a device nobody has removed yet but off the list it trusts)
  const off = removed || Boolean(guard.trusted && !guard.trusted.users.includes(userId));
  const back = off && memberIds.includes(userId);
  return {
    returning: removed ? [] : guard.unlisted(memberIds),
    letBackBy: back ? memberIds.find((id) => id !== userId) : undefined,
    // (the page of the one who stayed, on a list of their own: not a request waiting to be accepted)
    partnerGone: !off && guard.trusted?.users.length === 1 && guard.trusted.users[0] === userId,
  };
}
