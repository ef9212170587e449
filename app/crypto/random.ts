/** Randomness from the platform CSPRNG (crypto.getRandomValues / crypto.randomUUID). */
import { RANDOM_ID_CHARS } from "./constants";
import { CryptoError } from "./errors";
import { WEB_CRYPTO_UNAVAILABLE } from "./platform";
import type { Bytes } from "./bytes";

/** getRandomValues fills at most 65,536 bytes per call. */
const MAX_RANDOM_BYTES_PER_CALL = 65_536;

export function randomBytes(length: number): Bytes {
  const out = new Uint8Array(length);
  for (let offset = 0; offset < length; offset += MAX_RANDOM_BYTES_PER_CALL) {
    globalThis.crypto.getRandomValues(out.subarray(offset, Math.min(length, offset + MAX_RANDOM_BYTES_PER_CALL)));
  }
  return out;
}

/** A random version 4 UUID (channel ids, file names). */
export function randomUuid(): string {
  if (typeof globalThis.crypto?.randomUUID !== "function") throw new CryptoError("randomUuid", WEB_CRYPTO_UNAVAILABLE);
  return globalThis.crypto.randomUUID();
}

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
/** Largest multiple of the alphabet size that fits in a byte: bytes at or above it are discarded. */
const ID_BYTE_LIMIT = 256 - (256 % ID_ALPHABET.length); // 252

/**
 * A PocketBase-style record id: `length` characters from [a-z0-9], each uniformly distributed
 * (rejection sampling, no modulo bias).
 */
export function randomId(length: number = RANDOM_ID_CHARS): string {
  if (!Number.isSafeInteger(length) || length < 1) throw new CryptoError("randomId", "length must be a positive integer");
  let out = "";
  while (out.length < length) {
    const pool = randomBytes(length - out.length + 8);
    for (let i = 0; i < pool.length && out.length < length; i++) {
      if (pool[i] < ID_BYTE_LIMIT) out += ID_ALPHABET[pool[i] % ID_ALPHABET.length];
    }
  }
  return out;
}
