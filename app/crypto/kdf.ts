/**
 * Key derivation building blocks: PBKDF2-SHA256 from a password into a non-extractable HKDF
 * master key, then HKDF-SHA256 into labelled secrets and AES-GCM keys; plus a SHA-256 helper.
 */
import { AES_KEY_BITS, DERIVED_SECRET_BITS, HASH_NAME, MASTER_SECRET_BITS } from "./constants";
import { base64Encode, base64UrlEncode, utf8Encode, type Bytes } from "./bytes";
import { CryptoError, guard } from "./errors";
import { subtle } from "./platform";

export const EMPTY: Bytes = new Uint8Array(0);

/** Highest work factor accepted; guards against a typo turning a login into a minutes-long hang. */
const MAX_PBKDF2_ITERATIONS = 10_000_000;

export function checkIterations(fn: string, iterations: number): void {
  if (!Number.isSafeInteger(iterations) || iterations < 1 || iterations > MAX_PBKDF2_ITERATIONS) {
    throw new CryptoError(fn, "iterations must be an integer between 1 and 10000000");
  }
}

/** PBKDF2-HMAC-SHA256 over raw bytes, returning `bits` bits. */
export async function pbkdf2Bits(password: Bytes, salt: Bytes, iterations: number, bits: number): Promise<Bytes> {
  const base = await subtle().importKey("raw", password, "PBKDF2", false, ["deriveBits"]);
  const out = await subtle().deriveBits({ name: "PBKDF2", hash: HASH_NAME, salt, iterations }, base, bits);
  return new Uint8Array(out);
}

/** Imports secret bytes as a non-extractable HKDF key. */
export async function importHkdfKey(secret: Bytes): Promise<CryptoKey> {
  return subtle().importKey("raw", secret, "HKDF", false, ["deriveBits", "deriveKey"]);
}

/** master = PBKDF2-SHA256(password, salt, iterations) -> 256 bits, held as a non-extractable HKDF key. */
export async function pbkdf2Master(password: string, salt: Bytes, iterations: number): Promise<CryptoKey> {
  const bits = await pbkdf2Bits(utf8Encode(password), salt, iterations, MASTER_SECRET_BITS);
  try {
    return await importHkdfKey(bits);
  } finally {
    bits.fill(0);
  }
}

/** HKDF-SHA256(master, salt, info) -> `bits` bits. */
export async function hkdfBits(master: CryptoKey, salt: Bytes, info: string, bits: number = DERIVED_SECRET_BITS): Promise<Bytes> {
  const out = await subtle().deriveBits({ name: "HKDF", hash: HASH_NAME, salt, info: utf8Encode(info) }, master, bits);
  return new Uint8Array(out);
}

/** HKDF-SHA256(master, salt, info) -> non-extractable AES-GCM-256 key for encrypt/decrypt. */
export async function hkdfAesKey(master: CryptoKey, salt: Bytes, info: string): Promise<CryptoKey> {
  return subtle().deriveKey(
    { name: "HKDF", hash: HASH_NAME, salt, info: utf8Encode(info) },
    master,
    { name: "AES-GCM", length: AES_KEY_BITS },
    false,
    ["encrypt", "decrypt"],
  );
}

/** SHA-256 of the UTF-8 text, as standard base64 with padding. */
export async function sha256Base64(text: string): Promise<string> {
  const fn = "sha256Base64";
  if (typeof text !== "string") throw new CryptoError(fn, "text must be a string");
  return guard(fn, "digest failed", async () => base64Encode(new Uint8Array(await subtle().digest(HASH_NAME, utf8Encode(text)))));
}

/** SHA-256 of bytes, as base64url without padding (a file's fingerprint inside a signed message). */
export async function sha256Bytes(bytes: Uint8Array): Promise<string> {
  const fn = "sha256Bytes";
  if (!(bytes instanceof Uint8Array)) throw new CryptoError(fn, "bytes must be a Uint8Array");
  return guard(fn, "digest failed", async () => base64UrlEncode(new Uint8Array(await subtle().digest(HASH_NAME, bytes as Bytes))));
}
