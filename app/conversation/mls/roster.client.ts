/**
 * A direct conversation's participant list on this device (roster.ts): the list it trusts (never an
 * older one, even when it joins again), the leaves it refuses, and the changes it commits. The trusted
 * list is kept with the conversation's other membership facts (runtime.client.ts) and moves only to a
 * newer list signed by someone on it.
 */
import type { ClientState, Proposal } from "ts-mls";
import { deviceKeys } from "~/lib/device-keys.client";
import { ChatError, KeysMissingError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { KeysNotAcceptedError, pinnedVerifyKeys, retiringIdentities } from "./identity.client";
import { profileNow, recentProfiles } from "~/conversation/senders/profiles.client";
import { staleLeaves } from "./sync";
import { letBackText } from "./words";
import {
  departedLeaves,
  leafIdentities,
  removeLeaves,
  rosterIn,
  rosterProposal,
  rosterSigned,
  signRoster,
  unlistedLeaves,
  type Roster,
} from "./roster";

/** The group's list does not name this device's user, or is not signed by a participant: it is not joined. */
export class RosterRefused extends ChatError {
  /** A one-to-one's list naming this user that this device cannot check: it may be started afresh (ADR 0098). */
  afresh = false;
}

/**
 * How long a page takes a list signer's key as it had it before asking the server again, before it
 * seals; a conversation being opened always asks (`reconciling`): a profile that came with a page of
 * history seconds before the signer's reset held the old key, and the signer's new device waited for
 * a list nobody signed again (CI: 2 of 3 runs of `reset-own-lists.spec.ts` on a quick machine).
 */
const SIGNER_KEY_MAX_AGE_MS = 10_000;

const sameList = (a: Roster | null, b: Roster) => Boolean(a && a.v === b.v && a.sig === b.sig);

export class RosterGuard {
  /** Users whose devices the group carried without being on the trusted list: refused here. */
  readonly refused = new Set<string>();
  /** The group carried a list no participant signed: refused here. */
  tampered = false;
  /**
   * A newer list the group carries, signed by a participant under keys of theirs the viewer has not
   * accepted yet (their reset without the recovery key, ADR 0051): neither trusted nor undone. Nothing
   * is sealed and the list is not changed here until the viewer accepts those keys; then it is trusted.
   */
  pending: Roster | null = null;

  private readonly groupId: string;

  constructor(
    private readonly viewer: SessionUser,
    private readonly channel: { id: string; name: string; oneToOne?: boolean },
    public trusted: Roster | null,
    private readonly keep: (roster: Roster) => void,
  ) {
    this.groupId = channel.id;
  }

  /** Lists found signed under their signer's key of now, by signature and key (a positive answer lasts until the key changes). */
  private readonly current = new Set<string>();

  /**
   * Whether the list holds under its signer's key of now, not only under one from before their reset
   * (ADR 0051): the signer's own new devices cannot check a list signed by a key they no longer have.
   * Unknown (the profile not at hand) counts as yes: nothing is signed again on a guess.
   */
  private async signedNow(roster: Roster, maxAgeMs: number): Promise<boolean> {
    // (this user's own: this device adopted it, so it holds under a key it has)
    if (roster.by === this.viewer.id) return true;
    // (a page open since before the signer's reset holds their old key: asked again now and then)
    const signer =
      maxAgeMs === 0
        ? await profileNow(roster.by).catch(() => null)
        : (await recentProfiles([roster.by], maxAgeMs).catch(() => null))?.get(roster.by);
    if (!signer) return true;
    const mark = `${roster.sig}:${signer.profile.rsaPublicKey}`;
    if (this.current.has(mark)) return true;
    if (!(await rosterSigned(this.groupId, roster, signer.verifyKey))) return false;
    this.current.add(mark);
    return true;
  }

  private async holds(roster: Roster): Promise<boolean> {
    // Under any key the viewer pinned for its signer: a list signed before the signer's reset still holds (ADR 0051).
    for (const key of await pinnedVerifyKeys(this.viewer, roster.by, this.groupId))
      if (await rosterSigned(this.groupId, roster, key)) return true;
    return false;
  }

  private trust(roster: Roster) {
    this.trusted = roster;
    this.keep(roster);
    if (this.pending && this.pending.v <= roster.v) this.pending = null;
    for (const userId of roster.users) this.refused.delete(userId);
  }

  /** A newer list than the trusted one, set by someone on it: trusted when it holds, else `pending` when it holds under their keys of now. */
  private async weigh(roster: Roster | null): Promise<"trusted" | "pending" | "refused"> {
    this.pending = null;
    const trusted = this.trusted;
    if (!trusted || !roster || roster.v <= trusted.v || !trusted.users.includes(roster.by)) return "refused";
    if (await this.holds(roster)) {
      this.trust(roster);
      return "trusted";
    }
    const signer = await profileNow(roster.by).catch(() => null);
    if (!signer || !(await rosterSigned(this.groupId, roster, signer.verifyKey))) return "refused";
    this.pending = roster;
    return "pending";
  }

  /** The list the group carries, where it waits for the viewer's word on its signer's new keys (weigh). */
  private async held(state: ClientState): Promise<Roster | null> {
    return (await this.weigh(rosterIn(state))) === "pending" ? this.pending : null;
  }

  /** Nothing is sealed or listed anew while a list waits for the viewer's word on its signer's keys. */
  private async waitForPending(state: ClientState) {
    const held = await this.held(state);
    if (!held) return;
    const signer = await profileNow(held.by).catch(() => null);
    throw new KeysNotAcceptedError(signer?.profile.username ?? held.by);
  }

  private async sign(v: number, users: Iterable<string>): Promise<Roster> {
    const keys = await deviceKeys(this.viewer.id);
    if (!keys) throw new KeysMissingError();
    return signRoster(keys.rsaPrivateKey, this.groupId, v, users, this.viewer.id);
  }

  /** The first list of the group, made by its creator. */
  first(users: Iterable<string>): Promise<Roster> {
    return this.sign(1, [...users, this.viewer.id]);
  }

  /** A replaced group's first list (ADR 0049): the trusted one, signed anew one version on. */
  renewed(): Promise<Roster> {
    return this.sign((this.trusted?.v ?? 0) + 1, this.trusted?.users ?? [this.viewer.id]);
  }

  /** The list of a group this device just joined: the viewer on it, signed by a participant. */
  async adopt(state: ClientState) {
    const roster = rosterIn(state);
    // Signed by someone on it or, for a device that trusted a list before, on that one (a participant who
    // left signs the list without themselves); never older than the one trusted.
    // A one-to-one's list of this user alone, signed by the other person leaving it, is taken too: it names
    // nobody else (a device of the user's new since then opens it, ADR 0098).
    const onlyViewer = (r: Roster) => Boolean(this.channel.oneToOne) && r.users.length === 1 && r.users[0] === this.viewer.id;
    const signer = (r: Roster) => r.users.includes(r.by) || Boolean(this.trusted?.users.includes(r.by)) || onlyViewer(r);
    const valid =
      roster && roster.v >= (this.trusted?.v ?? 0) && roster.users.includes(this.viewer.id) && signer(roster) && (await this.holds(roster));
    if (valid) {
      this.trust(roster);
      this.observe(state);
      return;
    }
    // Signed by this user before a reset (a key this device never had): another participant's page signs it
    // again (listFix). What the user writes meanwhile waits in the outbox and goes once this device is in.
    if (roster?.by === this.viewer.id && roster.users.includes(this.viewer.id)) {
      const refused = new RosterRefused(
        "This conversation's list of participants was signed with your keys from before your account was reset. It opens on this device once another participant opens it.",
      );
      refused.telling = true;
      refused.held = true;
      refused.afresh = Boolean(this.channel.oneToOne);
      throw refused;
    }
    // A one-to-one's list of the other person alone (who stayed when this user left or was deactivated),
    // signed by a participant: that person's page lets them back in (ADR 0098).
    const alone = roster?.users.length === 1 && roster.users[0] !== this.viewer.id;
    if (roster && this.channel.oneToOne && alone && signer(roster) && (await this.holds(roster))) {
      const outside = new RosterRefused(letBackText(this.channel.name));
      outside.telling = true;
      // (what they write meanwhile waits in the outbox)
      outside.held = true;
      throw outside;
    }
    const unchecked = new RosterRefused("This conversation's list of participants could not be verified. Please try again later.");
    unchecked.afresh = Boolean(this.channel.oneToOne && roster?.users.includes(this.viewer.id));
    throw unchecked;
  }

  /**
   * A one-to-one whose trusted list is this user alone (the other person left, or was deactivated): the
   * server's other member, if there is exactly one (a list of two has nobody to let back in).
   */
  unlisted(memberIds: readonly string[]): string[] {
    const listed = this.trusted?.users;
    if (listed?.length !== 1 || listed[0] !== this.viewer.id) return [];
    const others = memberIds.filter((id) => id !== this.viewer.id);
    return others.length === 1 ? others : [];
  }

  /** After a commit: a newer list signed by a listed participant is trusted; anything else is noted and refused. */
  async follow(state: ClientState) {
    const trusted = this.trusted;
    if (!trusted) return;
    const roster = rosterIn(state);
    if ((await this.weigh(roster)) === "refused" && !sameList(roster, trusted)) this.tampered = true;
    this.observe(state);
  }

  /** The devices the group held when last looked at: a leaver's remaining ones are not refused, new unlisted ones are. */
  private known: Set<string> | null = null;

  private observe(state: ClientState) {
    for (const { userId, identity } of unlistedLeaves(state, [...(this.trusted?.users ?? []), ...(this.pending?.users ?? [])]))
      if (this.known && !this.known.has(identity)) this.refused.add(userId || "unknown");
    this.known = leafIdentities(state);
  }

  /** What must be committed before this device seals anything: refused leaves out, and the trusted list back. */
  async healing(state: ClientState): Promise<Proposal[]> {
    if (!this.trusted) return [];
    await this.waitForPending(state);
    const own = state.privatePath.leafIndex;
    // Removals and a list change go in separate commits: with ts-mls 1.6.4 a member's page failed to
    // process a commit that carried both.
    const removals = removeLeaves(unlistedLeaves(state, this.trusted.users).filter((l) => l.leaf !== own));
    return removals.length > 0 ? removals : this.listFix(state);
  }

  /**
   * The trusted list set again (newer, signed by the viewer) where the group carries another one, or
   * one signed by someone no longer on it (a participant who left, or deleted their account, signs the
   * list without themselves), or by a key its signer has given up (a reset without the recovery key):
   * a device with no list trusted yet, the user's new one, takes only a list signed by someone on it,
   * under a key it knows.
   */
  async listFix(state: ClientState, signerKeyMaxAgeMs = SIGNER_KEY_MAX_AGE_MS): Promise<Proposal[]> {
    const trusted = this.trusted;
    const carried = rosterIn(state);
    if (!trusted || !trusted.users.includes(this.viewer.id) || (await this.held(state))) return [];
    if (sameList(carried, trusted) && trusted.users.includes(trusted.by) && (await this.signedNow(trusted, signerKeyMaxAgeMs))) return [];
    return [rosterProposal(state, await this.sign(Math.max(trusted.v, carried?.v ?? 0) + 1, trusted.users))];
  }

  /**
   * What a participant's page commits when the members change: the leaves of anyone off the trusted
   * list and this device's own earlier leaves (from before a rejoin), and the user's leaves of before a
   * reset (ADR 0051); else the trusted list back.
   */
  async reconciling(state: ClientState, self: { userId: string; device: string }): Promise<Proposal[]> {
    const held = await this.held(state);
    const listed = new Set([...(this.trusted?.users ?? []), ...(held?.users ?? [])]);
    const stale = this.trusted ? staleLeaves(state, listed, self, retiringIdentities()) : [];
    return stale.length > 0 ? stale : this.listFix(state, 0);
  }

  /**
   * A new list, from the trusted one (never the server's): people added, this user leaving, or people an
   * administrator deactivated taken off. The leaves of anyone left off it are removed by the next
   * commit of a participant's page (healing). People added who left with devices still in the group:
   * those devices' removal first, as a commit of its own (the caller asks again for the list).
   */
  async change(state: ClientState, change: { add?: readonly string[]; leave?: boolean; remove?: readonly string[] }): Promise<Proposal[]> {
    if (change.add?.length) await this.waitForPending(state);
    const trusted = this.trusted;
    if (!trusted) return [];
    const departed = departedLeaves(state, trusted.users, change.add ?? []);
    if (departed.length > 0) return departed;
    const users = new Set([...trusted.users, ...(change.add ?? [])]);
    if (change.leave) users.delete(this.viewer.id);
    // people an administrator deactivated (ADR 0056), never the viewer
    for (const gone of change.remove ?? []) if (gone !== this.viewer.id) users.delete(gone);
    if (users.size === trusted.users.length && trusted.users.every((u) => users.has(u))) return [];
    return [rosterProposal(state, await this.sign(Math.max(trusted.v, rosterIn(state)?.v ?? 0) + 1, users))];
  }
}
