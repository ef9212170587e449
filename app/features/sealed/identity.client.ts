/**
 * Whose device a leaf is (ADR 0015). A device's MLS credential is "<user id>:<device id>:<proof>", the
 * proof an RSA-PSS signature by the user's identity key over the device's MLS signature public key.
 * Every member's page checks the proof against the user's identity key as pinned (pins.client.ts), so
 * a server cannot add a device of its own under someone's name, nor a device of a user whose keys it swapped.
 */
import { concatBytes, utf8Decode, utf8Encode } from "~/crypto/bytes";
import { randomId, signLabelled, verifyLabelled } from "~/crypto";
import { deviceKeys } from "~/lib/device-keys.client";
import { KeysMissingError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { senderProfiles } from "~/features/messages/messages.client";
import { checkKeys } from "~/features/pins/pins.client";
import { newBoundKeyPackage, setCredentialCheck } from "./mls";

const LABEL = "chatcrypt:mls-device:v1";
const DEVICE_ENTRY = (userId: string) => `chatcrypt.sealed-device.${userId}`;

/** This browser's device id for the user (kept in localStorage; a new one after the storage is cleared). */
export function deviceId(userId: string): string {
  let id = localStorage.getItem(DEVICE_ENTRY(userId));
  if (!id) {
    id = randomId(16);
    localStorage.setItem(DEVICE_ENTRY(userId), id);
  }
  return id;
}

const signed = (userId: string, device: string, signaturePublicKey: Uint8Array) =>
  concatBytes(utf8Encode(`${userId}:${device}:`), signaturePublicKey);

export interface LeafOwner {
  userId: string;
  device: string;
}

/** The user and device a credential names (unchecked), or null when it is not one of ours. */
export function leafOwner(identity: Uint8Array): LeafOwner | null {
  const match = /^([a-z0-9]{15}):([A-Za-z0-9_-]{8,64}):([A-Za-z0-9_-]+)$/.exec(utf8Decode(identity));
  return match ? { userId: match[1], device: match[2] } : null;
}

/** A key package for this device, its credential carrying the identity key's signature. */
export async function newDeviceKeyPackage(user: SessionUser) {
  const keys = await deviceKeys(user.id);
  if (!keys) throw new KeysMissingError();
  const device = deviceId(user.id);
  return newBoundKeyPackage(
    async (publicKey) => `${user.id}:${device}:${await signLabelled(keys.rsaPrivateKey, LABEL, signed(user.id, device, publicKey))}`,
  );
}

/** Makes every group of this page check credentials against the users' pinned identity keys. */
export function checkCredentialsFor(viewer: SessionUser, channelId: string) {
  setCredentialCheck(async (credential, signaturePublicKey) => {
    if (credential.credentialType !== "basic") return false;
    const text = utf8Decode(credential.identity);
    const owner = leafOwner(credential.identity);
    if (!owner) return false;
    const sender = (await senderProfiles([owner.userId])).get(owner.userId);
    if (!sender) return false;
    if (!(await checkKeys(viewer.id, [sender.profile], channelId)).has(owner.userId)) return false;
    const proof = text.slice(text.lastIndexOf(":") + 1);
    return verifyLabelled(sender.verifyKey, LABEL, signed(owner.userId, owner.device, signaturePublicKey), proof);
  });
}
