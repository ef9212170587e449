import type { ChannelMember, MemberNotice } from "~/features/members/types";

/** What changed between two member lists of one channel, as notices dated `at`. */
export function membershipNotices(before: ChannelMember[], after: ChannelMember[], at: string): MemberNotice[] {
  const had = new Set(before.map((m) => m.userId));
  const has = new Set(after.map((m) => m.userId));
  const joined = after.filter((m) => !had.has(m.userId)).map((m) => notice(m, "joined", at));
  const left = before.filter((m) => !has.has(m.userId)).map((m) => notice(m, "left", at));
  return [...joined, ...left];
}

function notice(member: ChannelMember, what: "joined" | "left", at: string): MemberNotice {
  return { id: `${what}:${member.userId}:${at}`, text: `${member.username} ${what} the channel`, created: at };
}
