/**
 * Channel secrets and invite links.
 *   channelMaster = PBKDF2-SHA256(password, salt = utf8(channelId), iterations) -> 256 bits (HKDF key)
 *   key           = HKDF-SHA256(channelMaster, salt = empty, info = "chatcrypt channel key") -> AES-GCM-256
 *   verifier      = base64url(HKDF-SHA256(channelMaster, salt = empty, info = "chatcrypt join verifier") -> 256 bits)
 *   callBase      = HKDF-SHA256(channelMaster, salt = empty, info = "chatcrypt call key base") -> 256 bits (HKDF key),
 *                   from which each call's media key is derived with the call's id as salt (call.ts)
 * The server keeps only SHA-256 of the verifier, so it can check a join without learning the key.
 *
 * Invite links carry the channel password encrypted under
 *   inviteKey = PBKDF2-SHA256(utf8(channelId), salt = "channel-invite", 100,000) -> AES-GCM-256
 * as base64url(iv || ciphertext || tag) in the URL fragment, which browsers never send to a server.
 */
import {
  AES_KEY_BITS,
  GCM_IV_BYTES,
  GCM_TAG_BYTES,
  HASH_NAME,
  INVITE_PBKDF2_ITERATIONS,
  LABELS,
  MASTER_SECRET_BITS,
  PBKDF2_ITERATIONS,
} from "./constants";
import { base64UrlDecode, base64UrlEncode, utf8Decode, utf8Encode, type Bytes } from "./bytes";
import { CryptoError, guard } from "./errors";
import { subtle } from "./platform";
import { EMPTY, checkIterations, hkdfAesKey, hkdfBits, importHkdfKey, pbkdf2Bits } from "./kdf";
import { decryptBytes, encryptBytes } from "./aead";

function checkChannelId(fn: string, channelId: unknown): asserts channelId is string {
  if (typeof channelId !== "string" || channelId.length === 0) throw new CryptoError(fn, "channelId is required");
}

export interface ChannelSecrets {
  key: CryptoKey;
  verifier: string;
  callBase: CryptoKey;
}

/** Size of a channel's master secret (the PBKDF2 output), in bytes. */
export const CHANNEL_MASTER_BYTES = MASTER_SECRET_BITS / 8;

/**
 * channelMaster = PBKDF2-SHA256(password, salt = utf8(channelId), iterations) as raw bytes: what the keyring
 * keeps beside the password (docs/decisions/0035-channel-master-in-the-keyring.md) so that another device
 * skips the PBKDF2. The caller zeroes it once used.
 */
export async function deriveChannelMaster(password: string, channelId: string, iterations: number = PBKDF2_ITERATIONS): Promise<Bytes> {
  return masterOf("deriveChannelMaster", password, channelId, iterations);
}

/** The master secret, its errors named after `fn`: the function the caller called. */
async function masterOf(fn: string, password: string, channelId: string, iterations: number): Promise<Bytes> {
  if (typeof password !== "string" || password.length === 0) throw new CryptoError(fn, "password is required");
  checkChannelId(fn, channelId);
  checkIterations(fn, iterations);
  return guard(fn, "derivation failed", () => pbkdf2Bits(utf8Encode(password), utf8Encode(channelId), iterations, MASTER_SECRET_BITS));
}

/** The channel's key, join verifier and call key base from its master secret (non-extractable keys). */
export async function channelSecretsFromMaster(master: Bytes): Promise<ChannelSecrets> {
  const fn = "channelSecretsFromMaster";
  if (!(master instanceof Uint8Array) || master.length !== CHANNEL_MASTER_BYTES) throw new CryptoError(fn, "master must be 32 bytes");
  return guard(fn, "derivation failed", async () => {
    const hkdf = await importHkdfKey(master);
    const key = await hkdfAesKey(hkdf, EMPTY, LABELS.channelKey);
    const bits = await hkdfBits(hkdf, EMPTY, LABELS.joinVerifier);
    const verifier = base64UrlEncode(bits);
    bits.fill(0);
    const base = await hkdfBits(hkdf, EMPTY, LABELS.callBase);
    const callBase = await importHkdfKey(base);
    base.fill(0);
    return { key, verifier, callBase };
  });
}

export async function deriveChannelSecrets(
  password: string,
  channelId: string,
  iterations: number = PBKDF2_ITERATIONS,
): Promise<ChannelSecrets> {
  const master = await masterOf("deriveChannelSecrets", password, channelId, iterations);
  try {
    return await channelSecretsFromMaster(master);
  } finally {
    master.fill(0);
  }
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
  if (typeof password !== "string" || password.length === 0) {
    checkChannelId(fn, channelId);
    throw new CryptoError(fn, "password is required");
  }
  return sealInvite(fn, channelId, password);
}

/**
 * Recovers the channel password from an invite link's key. Errors: "decryptInvitePassword: malformed key",
 * "decryptInvitePassword: too short", "decryptInvitePassword: authentication failed" (wrong channel or altered key).
 */
export function decryptInvitePassword(channelId: string, key: string): Promise<string> {
  return openInvite("decryptInvitePassword", channelId, key);
}

// The channel's name travels in the invite's fragment too (so the sign-up page can say where the link
// leads), sealed like the password and marked so that one cannot stand in for the other.
const NAME_MARK = "chatcrypt invite name\u0000";

/** Encrypts the channel's name for an invite link (the same key as the password). */
export function encryptInviteName(channelId: string, name: string): Promise<string> {
  return sealInvite("encryptInviteName", channelId, NAME_MARK + name);
}

/** The channel's name from an invite link; throws as decryptInvitePassword does, or "not a name". */
export async function decryptInviteName(channelId: string, sealed: string): Promise<string> {
  const fn = "decryptInviteName";
  const text = await openInvite(fn, channelId, sealed);
  if (!text.startsWith(NAME_MARK)) throw new CryptoError(fn, "not a name");
  return text.slice(NAME_MARK.length);
}

async function sealInvite(fn: string, channelId: string, text: string): Promise<string> {
  checkChannelId(fn, channelId);
  return guard(fn, "encryption failed", async () => {
    const key = await inviteKey(channelId);
    return base64UrlEncode(await encryptBytes(key, utf8Encode(text)));
  });
}

async function openInvite(fn: string, channelId: string, key: string): Promise<string> {
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
