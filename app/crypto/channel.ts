/**
 * Channel secrets and invite links.
 *   channelMaster = PBKDF2-SHA256(password, salt = utf8(channelId), iterations) -> 256 bits (HKDF key)
 *   key           = HKDF-SHA256(channelMaster, salt = empty, info = "chatcrypt channel key") -> AES-GCM-256
 *   verifier      = base64url(HKDF-SHA256(channelMaster, salt = empty, info = "chatcrypt join verifier") -> 256 bits)
 * The server keeps only SHA-256 of the verifier, so it can check a join without learning the key.
 *
 * Invite links carry the channel password encrypted under
 *   inviteKey = PBKDF2-SHA256(utf8(channelId), salt = "channel-invite", 100,000) -> AES-GCM-256
 * as base64url(iv || ciphertext || tag) in the URL fragment, which browsers never send to a server.
 */
import { AES_KEY_BITS, GCM_IV_BYTES, GCM_TAG_BYTES, HASH_NAME, INVITE_PBKDF2_ITERATIONS, LABELS, PBKDF2_ITERATIONS } from "./constants";
import { base64UrlDecode, base64UrlEncode, utf8Decode, utf8Encode, type Bytes } from "./bytes";
import { CryptoError, guard } from "./errors";
import { subtle } from "./platform";
import { EMPTY, checkIterations, hkdfAesKey, hkdfBits, pbkdf2Master } from "./kdf";
import { decryptBytes, encryptBytes } from "./aead";

function checkChannelId(fn: string, channelId: unknown): asserts channelId is string {
  if (typeof channelId !== "string" || channelId.length === 0) throw new CryptoError(fn, "channelId is required");
}

export async function deriveChannelSecrets(
  password: string,
  channelId: string,
  iterations: number = PBKDF2_ITERATIONS,
): Promise<{ key: CryptoKey; verifier: string }> {
  const fn = "deriveChannelSecrets";
  if (typeof password !== "string" || password.length === 0) throw new CryptoError(fn, "password is required");
  checkChannelId(fn, channelId);
  checkIterations(fn, iterations);
  return guard(fn, "derivation failed", async () => {
    const master = await pbkdf2Master(password, utf8Encode(channelId), iterations);
    const key = await hkdfAesKey(master, EMPTY, LABELS.channelKey);
    const bits = await hkdfBits(master, EMPTY, LABELS.joinVerifier);
    const verifier = base64UrlEncode(bits);
    bits.fill(0);
    return { key, verifier };
  });
}

async function inviteKey(channelId: string): Promise<CryptoKey> {
  const base = await subtle().importKey("raw", utf8Encode(channelId), "PBKDF2", false, ["deriveKey"]);
  return subtle().deriveKey(
    { name: "PBKDF2", hash: HASH_NAME, salt: utf8Encode(LABELS.inviteSalt), iterations: INVITE_PBKDF2_ITERATIONS },
    base,
    { name: "AES-GCM", length: AES_KEY_BITS },
    false,
    ["encrypt", "decrypt"],
  );
}

/** Encrypts the channel password for an invite link; returns base64url(iv || ciphertext || tag). */
export async function encryptInvitePassword(channelId: string, password: string): Promise<string> {
  const fn = "encryptInvitePassword";
  checkChannelId(fn, channelId);
  if (typeof password !== "string" || password.length === 0) throw new CryptoError(fn, "password is required");
  return guard(fn, "encryption failed", async () => {
    const key = await inviteKey(channelId);
    return base64UrlEncode(await encryptBytes(key, utf8Encode(password)));
  });
}

/**
 * Recovers the channel password from an invite link's key. Errors: "decryptInvitePassword: malformed key",
 * "decryptInvitePassword: too short", "decryptInvitePassword: authentication failed" (wrong channel or altered key).
 */
export async function decryptInvitePassword(channelId: string, key: string): Promise<string> {
  const fn = "decryptInvitePassword";
  checkChannelId(fn, channelId);
  let data: Bytes;
  try {
    data = base64UrlDecode(key);
  } catch (err) {
    throw new CryptoError(fn, "malformed key", { cause: err });
  }
  if (data.length < GCM_IV_BYTES + GCM_TAG_BYTES) throw new CryptoError(fn, "too short");
  const aesKey = await guard(fn, "derivation failed", () => inviteKey(channelId));
  let plaintext: Uint8Array;
  try {
    plaintext = await decryptBytes(aesKey, data);
  } catch (err) {
    throw err instanceof CryptoError
      ? new CryptoError(fn, err.reason, { cause: err })
      : new CryptoError(fn, "authentication failed", { cause: err });
  }
  return guard(fn, "invalid utf-8", () => utf8Decode(plaintext));
}
