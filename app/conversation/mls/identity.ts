/**
 * A device's MLS credential (ADR 0015): "<user id>:<device id>:<proof>", the proof an RSA-PSS signature
 * by the user's identity key over the device's MLS signature public key, so members can tell whose
 * device a leaf is. Pure: the page's glue is identity.client.ts.
 */
import { signLabelled, verifyLabelled } from "~/crypto";
import { concatBytes, utf8Decode, utf8Encode } from "~/crypto/bytes";

const LABEL = "chatcrypt:mls-device:v1";
const CREDENTIAL = /^([a-z0-9]{15}):([A-Za-z0-9_-]{8,64}):([A-Za-z0-9_-]+)$/;

const signed = (userId: string, device: string, signaturePublicKey: Uint8Array) =>
  concatBytes(utf8Encode(`${userId}:${device}:`), signaturePublicKey);

export interface LeafOwner {
  userId: string;
  device: string;
}

/** The user and device a credential names (not checked), or null when it is not one of ours. */
export function leafOwner(identity: Uint8Array): LeafOwner | null {
  const match = CREDENTIAL.exec(utf8Decode(identity));
  return match ? { userId: match[1], device: match[2] } : null;
}

/** The credential identity of a device whose MLS signature public key is `signaturePublicKey`. */
export async function deviceCredential(signingKey: CryptoKey, owner: LeafOwner, signaturePublicKey: Uint8Array): Promise<string> {
  const proof = await signLabelled(signingKey, LABEL, signed(owner.userId, owner.device, signaturePublicKey));
  return `${owner.userId}:${owner.device}:${proof}`;
}

/** True when the credential's proof is the named user's signature (`verifyKey`) over this signature key. */
export async function credentialHolds(identity: Uint8Array, signaturePublicKey: Uint8Array, verifyKey: CryptoKey): Promise<boolean> {
  const match = CREDENTIAL.exec(utf8Decode(identity));
  if (!match) return false;
  return verifyLabelled(verifyKey, LABEL, signed(match[1], match[2], signaturePublicKey), match[3]);
}
