/**
 * A message its sender keeps in another member's archive (docs/decisions/0099-messages-kept-for-the-others.md):
 *   eph  = a fresh ECDH P-384 key pair for each entry
 *   key  = HKDF-SHA256(ECDH(eph private, member's public), salt "message-archive-gift",
 *          info "chatcrypt message archive gift key")   (the member computes it from the other side)
 *   aad  = "chatcrypt:archive-gift:v1:{memberId}:{channelId}:{messageId}"
 *   data = base64url(raw eph public (97 bytes) || iv || ciphertext || tag)
 * Only the holder of the member's private key opens it. It says nothing of who sealed it: what it holds
 * is the sender's signed plaintext, checked against the keys of the message's sender as any message
 * (messages.client.ts), and the server takes such an entry only from the message's sender.
 */
import { ECDH_CURVE } from "./constants";
import { base64UrlDecode, base64UrlEncode, utf8Decode, utf8Encode } from "./bytes";
import { decryptBytes, encryptBytes } from "./aead";
import { CryptoError, guard } from "./errors";
import { subtle } from "./platform";
import { deriveVaultKey } from "./vault";

export interface GiftContext {
  memberId: string;
  channelId: string;
  messageId: string;
}

const PARAMS: EcKeyImportParams = { name: "ECDH", namedCurve: ECDH_CURVE };
/** An uncompressed P-384 point: 0x04 || x || y. */
const RAW_PUBLIC_BYTES = 97;

const aadOf = (c: GiftContext) => `chatcrypt:archive-gift:v1:${c.memberId}:${c.channelId}:${c.messageId}`;

export async function sealGift(p: GiftContext & { memberPublicKey: CryptoKey; plaintext: string }): Promise<string> {
  const eph = await guard("sealGift", "key generation failed", () => subtle().generateKey(PARAMS, false, ["deriveBits"]));
  const key = await deriveVaultKey(eph.privateKey, p.memberPublicKey, "gift");
  const raw = new Uint8Array(await subtle().exportKey("raw", eph.publicKey));
  const sealed = await encryptBytes(key, utf8Encode(p.plaintext), aadOf(p));
  const out = new Uint8Array(raw.length + sealed.length);
  out.set(raw);
  out.set(sealed, raw.length);
  return base64UrlEncode(out);
}

/** Opens what sealGift produced; throws when it was altered, sealed to another key or bound to another member, conversation or message. */
export async function openGift(p: GiftContext & { ecdhPrivateKey: CryptoKey; data: string }): Promise<string> {
  const bytes = await guard("openGift", "malformed entry", () => base64UrlDecode(p.data));
  if (bytes.length <= RAW_PUBLIC_BYTES) throw new CryptoError("openGift", "malformed entry");
  const eph = await guard("openGift", "malformed entry", () =>
    subtle().importKey("raw", bytes.slice(0, RAW_PUBLIC_BYTES), PARAMS, true, []),
  );
  const key = await deriveVaultKey(p.ecdhPrivateKey, eph, "gift");
  return utf8Decode(await decryptBytes(key, bytes.slice(RAW_PUBLIC_BYTES), aadOf(p)));
}
