/**
 * Access to the platform's Web Crypto. Browsers expose crypto.subtle (and crypto.randomUUID) only in
 * a secure context (HTTPS, or http://localhost / 127.0.0.1); elsewhere every operation fails with
 * the UNAVAILABLE reason, so the page can explain the problem instead of showing a generic failure.
 */
import { CryptoError } from "./errors";

export const WEB_CRYPTO_UNAVAILABLE = "Web Crypto unavailable (needs HTTPS or localhost)";

export function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new CryptoError("webCrypto", WEB_CRYPTO_UNAVAILABLE);
  return s;
}

/** True for a Web Crypto key object (false where the platform has no Web Crypto at all). */
export function isCryptoKey(value: unknown): value is CryptoKey {
  return typeof CryptoKey !== "undefined" && value instanceof CryptoKey;
}
