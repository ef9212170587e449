/**
 * The single error type thrown by the crypto library.
 * The message always starts with the name of the public function that failed,
 * e.g. "decryptMessage: authentication failed", so callers can log it safely:
 * it never contains key material or plaintext.
 */
export class CryptoError extends Error {
  /** Name of the public function that failed, e.g. "decryptMessage". */
  readonly fn: string;
  /** The part of the message after "fn: ", e.g. "authentication failed". */
  readonly reason: string;

  constructor(fn: string, reason: string, options?: { cause?: unknown }) {
    super(`${fn}: ${reason}`, options);
    this.name = "CryptoError";
    this.fn = fn;
    this.reason = reason;
  }
}

/**
 * Runs `op` on behalf of the public function `fn`; a failure is rethrown through `relabel`, so the
 * message always names the public entry point rather than an inner helper.
 */
export async function guard<T>(fn: string, reason: string, op: () => Promise<T> | T): Promise<T> {
  try {
    return await op();
  } catch (err) {
    throw relabel(fn, reason, err);
  }
}

/**
 * The CryptoError to throw from `fn` for a caught `err`: a CryptoError of `fn` itself passes through,
 * a missing Web Crypto keeps its explanatory reason, anything else becomes `reason`.
 */
export function relabel(fn: string, reason: string, err: unknown): CryptoError {
  if (err instanceof CryptoError && err.fn === fn) return err;
  if (err instanceof CryptoError && err.fn === "webCrypto") return new CryptoError(fn, err.reason, { cause: err });
  return new CryptoError(fn, reason, { cause: err });
}
