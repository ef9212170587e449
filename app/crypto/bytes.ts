/**
 * Byte helpers: UTF-8, base64 (RFC 4648 §4) and base64url (§5), concatenation and comparison.
 * Written against Uint8Array only, so they behave the same in browsers and in Node.
 * Decoders are strict: they reject characters outside the alphabet, impossible lengths and
 * non-canonical encodings (stray bits in the last character), so every byte string has exactly one
 * accepted text form.
 */
import { CryptoError } from "./errors";

/** A Uint8Array backed by a plain ArrayBuffer, accepted everywhere Web Crypto wants a BufferSource. */
export type Bytes = Uint8Array<ArrayBuffer>;

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function utf8Encode(text: string): Bytes {
  return encoder.encode(text) as Bytes;
}

/** Decodes UTF-8, throwing CryptoError("utf8Decode: invalid utf-8") on malformed input. */
export function utf8Decode(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch (err) {
    throw new CryptoError("utf8Decode", "invalid utf-8", { cause: err });
  }
}

/** Copies any Uint8Array (whatever its backing buffer) into a fresh ArrayBuffer-backed one. */
export function copyBytes(bytes: Uint8Array): Bytes {
  const out = new Uint8Array(bytes.length);
  out.set(bytes);
  return out;
}

export function concatBytes(...parts: Uint8Array[]): Bytes {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * Compares two byte strings without an early exit on the first difference
 * (the running time depends only on the lengths).
 */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

const STD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function reverseTable(alphabet: string): Int16Array {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}

const STD_REVERSE = reverseTable(STD_ALPHABET);
const URL_REVERSE = reverseTable(URL_ALPHABET);

function encodeWith(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += alphabet[(n >>> 18) & 63] + alphabet[(n >>> 12) & 63] + alphabet[(n >>> 6) & 63] + alphabet[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += alphabet[(n >>> 18) & 63] + alphabet[(n >>> 12) & 63] + (pad ? "==" : "");
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += alphabet[(n >>> 18) & 63] + alphabet[(n >>> 12) & 63] + alphabet[(n >>> 6) & 63] + (pad ? "=" : "");
  }
  return out;
}

function decodeWith(fn: string, text: string, table: Int16Array, padded: boolean): Bytes {
  if (typeof text !== "string") throw new CryptoError(fn, "not a string");
  let body = text;
  if (padded) {
    if (text.length % 4 !== 0) throw new CryptoError(fn, "invalid length");
    if (text.endsWith("==")) body = text.slice(0, -2);
    else if (text.endsWith("=")) body = text.slice(0, -1);
  }
  const rem = body.length % 4;
  if (rem === 1) throw new CryptoError(fn, "invalid length");
  const outLength = Math.floor(body.length / 4) * 3 + (rem === 0 ? 0 : rem - 1);
  const out = new Uint8Array(outLength);
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    const v = c < 128 ? table[c] : -1;
    if (v < 0) throw new CryptoError(fn, "invalid character");
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 0xff;
    }
  }
  // Leftover bits of the last character must be zero (canonical encoding).
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) throw new CryptoError(fn, "non-canonical encoding");
  return out;
}

/** Standard base64 with "=" padding. */
export function base64Encode(bytes: Uint8Array): string {
  return encodeWith(bytes, STD_ALPHABET, true);
}

/** Strict standard base64; padding is required. Throws CryptoError("base64Decode: ..."). */
export function base64Decode(text: string): Bytes {
  return decodeWith("base64Decode", text, STD_REVERSE, true);
}

/** base64url without padding. */
export function base64UrlEncode(bytes: Uint8Array): string {
  return encodeWith(bytes, URL_ALPHABET, false);
}

/** Strict base64url without padding. Throws CryptoError("base64UrlDecode: ..."). */
export function base64UrlDecode(text: string): Bytes {
  return decodeWith("base64UrlDecode", text, URL_REVERSE, false);
}
