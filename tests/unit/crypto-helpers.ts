/** Shared helpers for the crypto unit tests. */
import { expect } from "vitest";
import { CryptoError } from "../../app/crypto";

/** Low PBKDF2 work factor for tests that are not about the work factor itself. */
export const FAST_ITERATIONS = 1_000;

export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0) throw new Error("odd hex length");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function b64uToBytes(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "base64url"));
}

export function bytesToB64u(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}

/** Returns a copy of `bytes` with the byte at `index` (negative counts from the end) XOR-ed with 0x01. */
export function flipByte(bytes: Uint8Array, index: number): Uint8Array {
  const out = new Uint8Array(bytes);
  const i = index < 0 ? out.length + index : index;
  out[i] ^= 0x01;
  return out;
}

/** Flips one byte inside a base64url field. */
export function flipB64u(text: string, index: number): string {
  return bytesToB64u(flipByte(b64uToBytes(text), index));
}

/** Imports raw AES key bytes as an AES-GCM key, the way a test holds a known key. */
export function importAesKey(hex: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", hexToBytes(hex), "AES-GCM", false, ["encrypt", "decrypt"]);
}

/** Asserts that `promise` rejects with a CryptoError whose message is exactly `message`. */
export async function expectCryptoError(promise: Promise<unknown>, message: string): Promise<CryptoError> {
  let caught: unknown;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected rejection with "${message}"`).toBeInstanceOf(CryptoError);
  const err = caught as CryptoError;
  expect(err.message).toBe(message);
  expect(err.fn).toBe(message.slice(0, message.indexOf(":")));
  expect(err.name).toBe("CryptoError");
  return err;
}

/** Same as expectCryptoError for synchronous functions. */
export function expectCryptoErrorSync(fn: () => unknown, message: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected throw with "${message}"`).toBeInstanceOf(CryptoError);
  expect((caught as CryptoError).message).toBe(message);
}
