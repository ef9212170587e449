/**
 * Whose device a leaf is, in the page (ADR 0015, identity.ts): this browser's device id, key packages
 * whose credential carries the identity key's proof, and the check every group of the page applies to
 * every leaf, against the identity keys the viewer pinned for its user (pins.client.ts), the current one
 * or one pinned before a reset (ADR 0051). A server can add neither a device of its own under someone's
 * name nor a device of a user whose keys it swapped.
 */
import type { ClientState } from "ts-mls";
import { base64UrlEncode } from "~/crypto/bytes";
import { deviceKeys } from "~/lib/device-keys.client";
import { ChatError, KeysMissingError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { forgetProfile, recentProfiles, senderProfiles } from "~/conversation/senders/profiles.client";
import { checkKeys } from "~/conversation/senders/pins.client";
import { senderKeys } from "~/conversation/senders/sender-keys.client";
import { newBoundKeyPackage, removeProposal, setCredentialCheck } from "./mls";
import { credentialHolds, deviceCredential, leafOwner } from "./identity";
import { deviceId } from "./device-id.client";
import { leaves } from "./sync";
import { keysNotAcceptedText } from "./words";

export { deviceId };

/** A key package for this device, its credential carrying the identity key's signature. */
export async function newDeviceKeyPackage(user: SessionUser) {
  const keys = await deviceKeys(user.id);
  if (!keys) throw new KeysMissingError();
  const owner = { userId: user.id, device: deviceId(user.id) };
  return newBoundKeyPackage((publicKey) => deviceCredential(keys.rsaPrivateKey, owner, publicKey));
}

/** A user's identity signature key as pinned by the viewer (undefined when unknown or changed). */
export async function pinnedVerifyKey(viewer: SessionUser, userId: string, channelId: string): Promise<CryptoKey | undefined> {
  const sender = (await senderProfiles([userId])).get(userId);
  if (!sender || !(await checkKeys(viewer.id, [sender.profile], channelId)).has(userId)) return undefined;
  return sender.verifyKey;
}

/**
 * Every identity key of a user the viewer may check a signature of theirs against: the one presented
 * now where it is trusted (pinned, or seen for the first time), and every key the viewer pinned for them,
 * earlier ones included (ADR 0051). For the viewer themselves: their current key only.
 */
export async function pinnedVerifyKeys(viewer: SessionUser, userId: string, channelId: string): Promise<CryptoKey[]> {
  const sender = (await senderProfiles([userId])).get(userId);
  if (!sender) return [];
  const trusted = (await checkKeys(viewer.id, [sender.profile], channelId)).has(userId);
  return (await senderKeys(viewer.id, sender, trusted)).map((k) => k.key);
}

/** True when the credential's proof verifies under one of these keys. */
const holdsUnderAny = async (identity: Uint8Array, signaturePublicKey: Uint8Array, keys: CryptoKey[]) => {
  for (const key of keys) if (await credentialHolds(identity, signaturePublicKey, key)) return true;
  return false;
};

/**
 * The viewer's own leaves that carry a proof of another key than their current one: devices of theirs
 * from before a reset without the recovery key (ADR 0051). Accepted only to be removed by this device
 * before it seals anything (retiringLeaves).
 */
const retiring = new Set<string>();

/** Remove proposals for the viewer's own leaves that carry an earlier key's proof (this device's leaf kept). */
export function retiringLeaves(state: ClientState) {
  const own = state.privatePath.leafIndex;
  return leaves(state)
    .filter((l) => l.leaf !== own && retiring.has(l.identity))
    .map((l) => removeProposal(l.leaf));
}

/** The identities of leaves accepted only to be removed. */
export const retiringIdentities = (): ReadonlySet<string> => retiring;

/**
 * Conversations where a leaf of another user holds under no key of theirs this page knows, not even the
 * one the server presents now: a device of theirs from before a reset this device never knew them
 * through (ADR 0098). Read once by the page that could not open the conversation.
 */
const unknownLeaves = new Set<string>();

/** Whether opening this conversation met such a leaf (and forgets it). */
export const takeUnknownLeaf = (channelId: string) => unknownLeaves.delete(channelId);

/** Leaves found to hold under a key the viewer pinned (kept: a pin is never taken back). */
const accepted = new Set<string>();

/**
 * Other users with a device in the group whose keys the viewer has not accepted (ADR 0051, a reset's new
 * keys): their messages are held back, and nothing is sealed or shared while they are in it.
 */
async function notAccepted(viewer: SessionUser, state: ClientState, channelId: string): Promise<string[]> {
  const out = new Set<string>();
  for (const node of state.ratchetTree) {
    if (node?.nodeType !== "leaf" || node.leaf.credential.credentialType !== "basic") continue;
    const { credential, signaturePublicKey } = node.leaf;
    const owner = leafOwner(credential.identity);
    if (!owner || owner.userId === viewer.id || out.has(owner.userId)) continue;
    const seen = `${new TextDecoder().decode(credential.identity)} ${base64UrlEncode(signaturePublicKey)}`;
    if (accepted.has(seen)) continue;
    if (await holdsUnderAny(credential.identity, signaturePublicKey, await pinnedVerifyKeys(viewer, owner.userId, channelId)))
      accepted.add(seen);
    else out.add(owner.userId);
  }
  return [...out];
}

/**
 * A device in the group under someone's keys the user has not accepted (their reset, ADR 0051): what
 * the user writes, or says in a call, waits until they are accepted (the outbox holds a message).
 */
export async function onlyAccepted(viewer: SessionUser, state: ClientState, channelId: string) {
  const waitFor = await notAccepted(viewer, state, channelId);
  if (waitFor.length === 0) return;
  const profiles = await senderProfiles(waitFor);
  throw new KeysNotAcceptedError(waitFor.map((id) => profiles.get(id)?.profile.username ?? id).join(", "));
}

/** How old a profile may be when it decides whether a device in the group is one from before its user's reset. */
const PRESENT_KEY_MAX_AGE_MS = 10_000;

/**
 * Whether the group holds a device of another user under the keys the server presents for them now:
 * not only devices from before their reset without the recovery key (ADR 0051), signed out by it, which
 * would be the only ones to read what is sealed now while their new device has not joined yet. A user
 * whose profile is not at hand counts as present (nothing is held back on a guess).
 */
export async function othersPresent(viewer: SessionUser, state: ClientState): Promise<boolean> {
  const others = state.ratchetTree.flatMap((node) => {
    if (node?.nodeType !== "leaf" || node.leaf.credential.credentialType !== "basic") return [];
    const { identity } = node.leaf.credential;
    const owner = leafOwner(identity);
    return owner && owner.userId !== viewer.id ? [{ owner, identity, key: node.leaf.signaturePublicKey }] : [];
  });
  if (others.length === 0) return false;
  const profiles = await recentProfiles([...new Set(others.map((o) => o.owner.userId))], PRESENT_KEY_MAX_AGE_MS).catch(() => null);
  for (const { owner, identity, key } of others) {
    const presented = profiles?.get(owner.userId);
    if (!presented || (await credentialHolds(identity, key, presented.verifyKey))) return true;
  }
  return false;
}

/** Nothing is sealed or shared (a message, a call's key) while the group holds a device under `names`' keys the user has not accepted. */
export class KeysNotAcceptedError extends ChatError {
  held = true;
  telling = true;
  constructor(readonly names: string) {
    super(keysNotAcceptedText(names));
  }
}

/** Makes every group of this page check credentials against the users' pinned identity keys. */
export function checkCredentialsFor(viewer: SessionUser, channelId: string) {
  setCredentialCheck(async (credential, signaturePublicKey) => {
    if (credential.credentialType !== "basic") return false;
    const owner = leafOwner(credential.identity);
    if (!owner) return false;
    const { identity } = credential;
    if (await holdsUnderAny(identity, signaturePublicKey, await pinnedVerifyKeys(viewer, owner.userId, channelId))) return true;
    // The keys this page holds for them may be older than the server's: asked again once, so that a key
    // change is noticed (and shown) now rather than at the next page load.
    forgetProfile(owner.userId);
    if (await holdsUnderAny(identity, signaturePublicKey, await pinnedVerifyKeys(viewer, owner.userId, channelId))) return true;
    if (owner.userId !== viewer.id) {
      // Under the keys the server presents now, not accepted yet (their reset): followed, so that the
      // others' messages still open here, but nothing is sealed for it until they are (notAccepted).
      const presented = (await senderProfiles([owner.userId])).get(owner.userId);
      if (presented && (await credentialHolds(identity, signaturePublicKey, presented.verifyKey))) return true;
      unknownLeaves.add(channelId);
      return false;
    }
    retiring.add(new TextDecoder().decode(identity));
    return true;
  });
}
