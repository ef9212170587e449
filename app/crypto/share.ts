/**
 * A channel's new password sealed by the channel admin who changed it to one member
 * (docs/decisions/0060-changing-the-channel-password.md):
 *   key   = HKDF-SHA256(ECDH(admin's private, member's public), salt "channel-password-share",
 *           info "chatcrypt channel password share key")   (the member computes it from the other side)
 *   aad   = "chatcrypt:share:v1:{channelId}:{fromId}:{toId}:{epoch}"
 *   ct    = encryptText(key, JSON.stringify(secret), aad)        (base64url(iv || ciphertext || tag))
 *   sig   = RSA-PSS over aad || 0x00 || utf8(ct), by the admin's identity key
 *   share = ct "." sig
 * The server stores the share and cannot open it, nor make one a member would accept.
 */
import { LABELS } from "./constants";
import { utf8Encode } from "./bytes";
import { CryptoError } from "./errors";
import { decryptText, encryptText } from "./aead";
import { deriveVaultKey } from "./vault";
import { signLabelled, verifyLabelled } from "./sign";

export interface ShareContext {
  channelId: string;
  fromId: string;
  toId: string;
  epoch: number;
}

const aadOf = (c: ShareContext) => `${LABELS.sharePrefix}:${c.channelId}:${c.fromId}:${c.toId}:${c.epoch}`;

export async function sealShare(
  p: ShareContext & { ecdhPrivateKey: CryptoKey; recipientPublicKey: CryptoKey; signingKey: CryptoKey; secret: unknown },
): Promise<string> {
  const aad = aadOf(p);
  const key = await deriveVaultKey(p.ecdhPrivateKey, p.recipientPublicKey, "share");
  const ct = await encryptText(key, JSON.stringify(p.secret), aad);
  return `${ct}.${await signLabelled(p.signingKey, aad, utf8Encode(ct))}`;
}

/**
 * Opens a share after checking its signature against one of the sender's keys. Errors:
 * "openShare: malformed share", "openShare: bad signature", "decryptText: ..." (altered or for someone else).
 */
export async function openShare(
  p: ShareContext & { ecdhPrivateKey: CryptoKey; senderPublicKey: CryptoKey; verifyKeys: readonly CryptoKey[]; share: string },
): Promise<unknown> {
  const [ct, sig, ...rest] = p.share.split(".");
  if (!ct || !sig || rest.length > 0) throw new CryptoError("openShare", "malformed share");
  const aad = aadOf(p);
  let verified = false;
  for (const key of p.verifyKeys) if (!verified) verified = await verifyLabelled(key, aad, utf8Encode(ct), sig);
  if (!verified) throw new CryptoError("openShare", "bad signature");
  const key = await deriveVaultKey(p.ecdhPrivateKey, p.senderPublicKey, "share");
  return JSON.parse(await decryptText(key, ct, aad)) as unknown;
}
