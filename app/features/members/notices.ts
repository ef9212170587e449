import type { ChannelMember, MemberNotice } from "~/features/members/types";
import { removedByAdministrator, shownName } from "~/conversation/senders/words";
import { forgetProfile, knownDeactivated, senderProfiles } from "~/conversation/senders/profiles.client";

/**
 * What changed between two member lists of one channel, as notices dated `at`. A direct
 * conversation's say "the conversation" and who added the person (ADR 0050), never "the channel".
 * Someone gone because an administrator deactivated them (`deactivated`) did not leave: "<name> was
 * removed by an administrator" (ADR 0056).
 */
export function membershipNotices(
  before: ChannelMember[],
  after: ChannelMember[],
  at: string,
  direct = false,
  deactivated: ReadonlySet<string> = new Set(),
): MemberNotice[] {
  const had = new Set(before.map((m) => m.userId));
  const has = new Set(after.map((m) => m.userId));
  const nameOf = (userId: string) => [...after, ...before].find((m) => m.userId === userId)?.username;
  const joined = after.filter((m) => !had.has(m.userId)).map((m) => notice(m, "joined", at, direct, nameOf));
  const left = before
    .filter((m) => !has.has(m.userId))
    .map((m) =>
      deactivated.has(m.userId)
        ? { id: `removed:${m.userId}:${at}`, text: removedByAdministrator(m.username), created: at }
        : notice(m, "left", at, direct, nameOf),
    );
  return [...joined, ...left];
}

/** Who of these users an administrator deactivated: their profiles asked for again (the page's copies may say otherwise). */
export async function deactivatedAmong(ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  for (const id of ids) forgetProfile(id);
  const profiles = await senderProfiles([...ids]);
  // (one who never wrote where the viewer still is has no profile to read here: the live stream said so)
  return new Set(ids.filter((id) => profiles.get(id)?.profile.deactivated || knownDeactivated(id)));
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

/**
 * The shown messages of people just deactivated, named so ("bob (deactivated)") without a reload, or
 * (`deactivated` false) of people back in the conversation, named plainly again (reactivated, they joined).
 */
export function relabelMembers<M extends { id: string; senderId: string; own: boolean; senderUsername: string }>(
  history: { messages: readonly M[]; update: (id: string, change: (m: M) => M) => void },
  people: readonly Pick<ChannelMember, "userId" | "username">[],
  deactivated = true,
) {
  const names = new Map(people.map((m) => [m.userId, shownName({ username: m.username, deactivated })]));
  for (const m of history.messages) {
    const name = names.get(m.senderId);
    if (name && !m.own && m.senderUsername !== name) history.update(m.id, (shown) => ({ ...shown, senderUsername: name }));
  }
}

/** Members' names by id ("" for anyone else, and for the `quiet`: people not let into the conversation yet). */
export const memberNames =
  (list: readonly ChannelMember[], quiet: readonly string[] = []) =>
  (userId: string) =>
    quiet.includes(userId) ? "" : (list.find((m) => m.userId === userId)?.username ?? "");
