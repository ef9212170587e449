/**
 * Whose device a leaf is, in the page (ADR 0015, identity.ts): this browser's device id, key packages
 * whose credential carries the identity key's proof, and the check every group of the page applies to
 * every leaf, against the user's identity key as pinned (pins.client.ts). A server can add neither a
 * device of its own under someone's name nor a device of a user whose keys it swapped.
 */
import { deviceKeys } from "~/lib/device-keys.client";
import { KeysMissingError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { senderProfiles } from "~/features/pins/profiles.client";
import { checkKeys } from "~/features/pins/pins.client";
import { newBoundKeyPackage, setCredentialCheck } from "./mls";
import { credentialHolds, deviceCredential, leafOwner } from "./identity";
import { deviceId } from "./device-id.client";

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

/** Makes every group of this page check credentials against the users' pinned identity keys. */
export function checkCredentialsFor(viewer: SessionUser, channelId: string) {
  setCredentialCheck(async (credential, signaturePublicKey) => {
    if (credential.credentialType !== "basic") return false;
    const owner = leafOwner(credential.identity);
    if (!owner) return false;
    const verifyKey = await pinnedVerifyKey(viewer, owner.userId, channelId);
    return Boolean(verifyKey) && credentialHolds(credential.identity, signaturePublicKey, verifyKey!);
  });
}
