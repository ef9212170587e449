/**
 * AES-256-GCM with a fresh random 12-byte IV per encryption.
 * Generic byte format: iv (12 bytes) || ciphertext || tag (16 bytes).
 */
import { GCM_IV_BYTES, GCM_TAG_BITS, GCM_TAG_BYTES } from "./constants";
import { base64UrlDecode, base64UrlEncode, concatBytes, copyBytes, utf8Decode, utf8Encode, type Bytes } from "./bytes";
import { CryptoError, relabel } from "./errors";
import { subtle } from "./platform";
import { randomBytes } from "./random";

/** True only inside the vitest runner, which sets process.env.VITEST. */
function testSeamAllowed(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return Boolean(env?.VITEST);
}

/**
 * Returns a fresh random IV, or the caller's fixed IV when running under the test runner.
 * A fixed IV outside tests is refused: reusing an IV under one key breaks AES-GCM completely.
 */
export function chooseIv(fn: string, dangerousTestOnlyIv: Uint8Array | undefined): Bytes {
  if (dangerousTestOnlyIv === undefined) return randomBytes(GCM_IV_BYTES);
  if (!testSeamAllowed()) throw new CryptoError(fn, "a fixed IV is only allowed in tests");
  if (!(dangerousTestOnlyIv instanceof Uint8Array) || dangerousTestOnlyIv.length !== GCM_IV_BYTES) {
    throw new CryptoError(fn, `IV must be ${GCM_IV_BYTES} bytes`);
  }
  return copyBytes(dangerousTestOnlyIv);
}

function isOperationError(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { name?: unknown }).name === "OperationError";
}

/** AES-GCM encryption; returns ciphertext || tag. Failures become CryptoError(fn, "invalid key"). */
export async function gcmEncrypt(fn: string, key: CryptoKey, iv: Bytes, plaintext: Bytes, aad?: Bytes): Promise<Bytes> {
  try {
    const params: AesGcmParams = { name: "AES-GCM", iv, tagLength: GCM_TAG_BITS };
    if (aad !== undefined) params.additionalData = aad;
    return new Uint8Array(await subtle().encrypt(params, key, plaintext));
  } catch (err) {
    throw relabel(fn, "invalid key", err);
  }
}

/**
 * AES-GCM decryption of ciphertext || tag. A tag mismatch (wrong key, wrong associated data,
 * altered bytes) is CryptoError(fn, "authentication failed"); a key that cannot decrypt at all is
 * CryptoError(fn, "invalid key").
 */
export async function gcmDecrypt(fn: string, key: CryptoKey, iv: Bytes, ciphertext: Bytes, aad?: Bytes): Promise<Bytes> {
  try {
    const params: AesGcmParams = { name: "AES-GCM", iv, tagLength: GCM_TAG_BITS };
    if (aad !== undefined) params.additionalData = aad;
    return new Uint8Array(await subtle().decrypt(params, key, ciphertext));
  } catch (err) {
    throw relabel(fn, isOperationError(err) ? "authentication failed" : "invalid key", err);
  }
}

function checkAad(fn: string, aad: string | undefined): Bytes | undefined {
  if (aad === undefined) return undefined;
  if (typeof aad !== "string") throw new CryptoError(fn, "aad must be a string");
  return utf8Encode(aad);
}

function checkData(fn: string, data: Uint8Array): Bytes {
  if (!(data instanceof Uint8Array)) throw new CryptoError(fn, "data must be a Uint8Array");
  return copyBytes(data);
}

/** Encrypts bytes under an AES-GCM key; output = iv (12 bytes) || ciphertext || tag. */
export async function encryptBytes(key: CryptoKey, data: Uint8Array, aad?: string, dangerousTestOnlyIv?: Uint8Array): Promise<Uint8Array> {
  return encryptBytesAs("encryptBytes", key, data, aad, dangerousTestOnlyIv);
}

async function encryptBytesAs(
  fn: string,
  key: CryptoKey,
  data: Uint8Array,
  aad?: string,
  dangerousTestOnlyIv?: Uint8Array,
): Promise<Bytes> {
  const plaintext = checkData(fn, data);
  const additional = checkAad(fn, aad);
  const iv = chooseIv(fn, dangerousTestOnlyIv);
  const ct = await gcmEncrypt(fn, key, iv, plaintext, additional);
  return concatBytes(iv, ct);
}

/** Reverses encryptBytes. Errors: "decryptBytes: too short", "decryptBytes: authentication failed". */
export async function decryptBytes(key: CryptoKey, data: Uint8Array, aad?: string): Promise<Uint8Array> {
  return decryptBytesAs("decryptBytes", key, data, aad);
}

async function decryptBytesAs(fn: string, key: CryptoKey, data: Uint8Array, aad?: string): Promise<Bytes> {
  const input = checkData(fn, data);
  const additional = checkAad(fn, aad);
  if (input.length < GCM_IV_BYTES + GCM_TAG_BYTES) throw new CryptoError(fn, "too short");
  const iv = input.slice(0, GCM_IV_BYTES);
  const ct = input.slice(GCM_IV_BYTES);
  return gcmDecrypt(fn, key, iv, ct, additional);
}

/** Encrypts UTF-8 text; returns base64url(iv || ciphertext || tag). */
export async function encryptText(key: CryptoKey, text: string, aad?: string): Promise<string> {
  if (typeof text !== "string") throw new CryptoError("encryptText", "text must be a string");
  return base64UrlEncode(await encryptBytesAs("encryptText", key, utf8Encode(text), aad));
}

/**
 * Reverses encryptText. Errors: "decryptText: malformed input", "decryptText: too short",
 * "decryptText: authentication failed", "decryptText: invalid utf-8".
 */
export async function decryptText(key: CryptoKey, b64: string, aad?: string): Promise<string> {
  const fn = "decryptText";
  let data: Bytes;
  try {
    data = base64UrlDecode(b64);
  } catch (err) {
    throw new CryptoError(fn, "malformed input", { cause: err });
  }
  const plaintext = await decryptBytesAs(fn, key, data, aad);
  try {
    return utf8Decode(plaintext);
  } catch (err) {
    throw new CryptoError(fn, "invalid utf-8", { cause: err });
  }
}
