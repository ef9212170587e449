/**
 * Who may be in a direct conversation, kept inside its MLS group where the server cannot change it
 * (ADR 19): a group-context extension holding the participants' user ids, a version, and the
 * identity-key signature of the participant who set it. A page trusts a new list only when it is newer
 * than the one it trusts and signed by someone on that one; a leaf of anyone not on the trusted list
 * is refused (removed before this device seals anything), whatever the server's records say.
 */
import type { ClientState, Extension, Proposal } from "ts-mls";
import { signLabelled, verifyLabelled } from "~/crypto";
import { utf8Decode, utf8Encode } from "~/crypto/bytes";
import { leafOwner } from "./identity";
import { ROSTER_EXTENSION, removeProposal } from "./mls";

const LABEL = "chatcrypt:participants:v1";

export interface Roster {
  /** Raised by one with every change; a page never goes back to a lower one. */
  v: number;
  /** The participants' user ids, sorted. */
  users: string[];
  /** Who set this list, and their identity-key signature over [group, v, users]. */
  by: string;
  sig: string;
}

const signed = (groupId: string, v: number, users: string[]) => utf8Encode(JSON.stringify([groupId, v, users]));

export async function signRoster(signingKey: CryptoKey, groupId: string, v: number, users: Iterable<string>, by: string): Promise<Roster> {
  const sorted = [...new Set(users)].sort();
  return { v, users: sorted, by, sig: await signLabelled(signingKey, LABEL, signed(groupId, v, sorted)) };
}

export const rosterExtension = (roster: Roster): Extension => ({
  extensionType: ROSTER_EXTENSION,
  extensionData: utf8Encode(JSON.stringify(roster)),
});

/** A group-context change that sets the list (every other group-context extension kept). */
export function rosterProposal(state: ClientState, roster: Roster): Proposal {
  const others = state.groupContext.extensions.filter((e) => e.extensionType !== ROSTER_EXTENSION);
  return { proposalType: "group_context_extensions", groupContextExtensions: { extensions: [...others, rosterExtension(roster)] } };
}

/** The list the group carries (not checked), or null. */
export function rosterIn(state: ClientState): Roster | null {
  const found = state.groupContext.extensions.find((e) => e.extensionType === ROSTER_EXTENSION);
  if (!found) return null;
  try {
    const r = JSON.parse(utf8Decode(found.extensionData)) as Roster;
    const ok =
      Number.isSafeInteger(r.v) &&
      Array.isArray(r.users) &&
      r.users.every((u) => typeof u === "string") &&
      typeof r.by === "string" &&
      typeof r.sig === "string";
    return ok ? r : null;
  } catch {
    return null;
  }
}

/** True when `roster` is signed by `roster.by`, whose identity key is `verifyKey`, for this group. */
export const rosterSigned = (groupId: string, roster: Roster, verifyKey: CryptoKey) =>
  verifyLabelled(verifyKey, LABEL, signed(groupId, roster.v, roster.users), roster.sig);

/** The leaves of users who are not on the list: their indices and users. */
export function unlistedLeaves(state: ClientState, users: readonly string[]): { leaf: number; userId: string; identity: string }[] {
  const listed = new Set(users);
  return state.ratchetTree.flatMap((node, index) => {
    if (node?.nodeType !== "leaf" || node.leaf.credential.credentialType !== "basic") return [];
    const owner = leafOwner(node.leaf.credential.identity);
    const identity = utf8Decode(node.leaf.credential.identity);
    return owner && listed.has(owner.userId) ? [] : [{ leaf: index / 2, userId: owner?.userId ?? "", identity }];
  });
}

/** Every leaf's credential identity: which devices the group holds. */
export const leafIdentities = (state: ClientState) =>
  new Set(
    state.ratchetTree.flatMap((node) =>
      node?.nodeType === "leaf" && node.leaf.credential.credentialType === "basic" ? [utf8Decode(node.leaf.credential.identity)] : [],
    ),
  );

export const removeLeaves = (leaves: { leaf: number }[]) => leaves.map((l) => removeProposal(l.leaf));

/**
 * The removals that must come before people are listed again: the leaves they left the group with
 * (off the list, not yet removed by a participant's page). Listed again with those still in, their old
 * devices would read what is sealed before they accept (ADR 52, addendum). Never this device's own leaf.
 */
export function departedLeaves(state: ClientState, listed: readonly string[], adding: readonly string[]): Proposal[] {
  const back = new Set(adding);
  const own = state.privatePath.leafIndex;
  return removeLeaves(unlistedLeaves(state, listed).filter((l) => back.has(l.userId) && l.leaf !== own));
}
