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
 * Runs `op`; any failure that is not already a CryptoError of `fn` becomes
 * CryptoError(fn, reason). A CryptoError raised by an inner helper is re-labelled
 * with `fn` so that the message always names the public entry point.
 */
export async function guard<T>(fn: string, reason: string, op: () => Promise<T> | T): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof CryptoError && err.fn === fn) throw err;
    throw new CryptoError(fn, reason, { cause: err });
  }
}
