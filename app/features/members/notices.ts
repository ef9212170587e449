import type { ChannelMember, MemberEvent, MemberNotice } from "~/features/members/types";
import { DELETED_USER, removedByAdministrator, shownName } from "~/conversation/senders/words";
import { forgetProfile, senderProfiles } from "~/conversation/senders/profiles.client";

/**
 * The lines of a conversation's membership events. A direct conversation's say "the conversation" and
 * who added the person (ADR 0050), never "the channel". Someone gone because an administrator
 * deactivated them did not leave: "<name> was removed by an administrator" (ADR 0056). A deleted
 * account is "Deleted user".
 */
export function membershipNotices(events: readonly MemberEvent[], direct = false): MemberNotice[] {
  const where = direct ? "the conversation" : "the channel";
  return events.map((e) => {
    const name = e.username || DELETED_USER;
    const text =
      e.event === "removed"
        ? removedByAdministrator(name)
        : `${name} ${e.event} ${where}${direct && e.event === "joined" && e.addedByName ? `, added by ${e.addedByName}` : ""}`;
    return { id: `member-event:${e.id}`, text, created: e.created };
  });
}

/** Who of these users an administrator deactivated: their profiles asked for again (the page's copies may say otherwise). */
export async function deactivatedAmong(ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  for (const id of ids) forgetProfile(id);
  const profiles = await senderProfiles([...ids]);
  return new Set(ids.filter((id) => profiles.get(id)?.profile.deactivated));
}

/** The shown messages of people just deactivated, named so ("bob (deactivated)") without a reload. */
export function relabelDeactivated<M extends { id: string; senderId: string; own: boolean; senderUsername: string }>(
  history: { messages: readonly M[]; update: (id: string, change: (m: M) => M) => void },
  gone: readonly ChannelMember[],
) {
  const names = new Map(gone.map((m) => [m.userId, shownName({ username: m.username, deactivated: true })]));
  for (const m of history.messages) {
    const name = names.get(m.senderId);
    if (name && !m.own) history.update(m.id, (shown) => ({ ...shown, senderUsername: name }));
  }
}
