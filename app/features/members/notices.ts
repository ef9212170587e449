import type { ChannelMember, MemberNotice } from "~/features/members/types";

/**
 * What changed between two member lists of one channel, as notices dated `at`. A direct
 * conversation's say "the conversation" and who added the person (ADR 0050), never "the channel".
 */
export function membershipNotices(before: ChannelMember[], after: ChannelMember[], at: string, direct = false): MemberNotice[] {
  const had = new Set(before.map((m) => m.userId));
  const has = new Set(after.map((m) => m.userId));
  const nameOf = (userId: string) => [...after, ...before].find((m) => m.userId === userId)?.username;
  const joined = after.filter((m) => !had.has(m.userId)).map((m) => notice(m, "joined", at, direct, nameOf));
  const left = before.filter((m) => !has.has(m.userId)).map((m) => notice(m, "left", at, direct, nameOf));
  return [...joined, ...left];
}

function notice(
  member: ChannelMember,
  what: "joined" | "left",
  at: string,
  direct: boolean,
  nameOf: (userId: string) => string | undefined,
): MemberNotice {
  const id = `${what}:${member.userId}:${at}`;
  if (!direct) return { id, text: `${member.username} ${what} the channel`, created: at };
  const adder = what === "joined" && member.addedBy && member.addedBy !== member.userId ? nameOf(member.addedBy) : undefined;
  return { id, text: `${member.username} ${what} the conversation${adder ? `, added by ${adder}` : ""}`, created: at };
}
