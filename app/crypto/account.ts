/**
 * Account secrets. The raw password never leaves the browser:
 *   master      = PBKDF2-SHA256(password, salt = normalizeEmail(email), iterations) -> 256 bits (HKDF key)
 *   loginSecret = base64url(HKDF-SHA256(master, salt = empty, info = "chatcrypt login secret") -> 256 bits)
 *                 sent to the server as the account password
 *   wrap key    = HKDF-SHA256(master, salt = utf8(userId), info = "chatcrypt key wrap") -> AES-GCM-256,
 *                 wraps the identity private keys and never leaves the browser
 */
import { LABELS, PBKDF2_ITERATIONS } from "./constants";
import { base64UrlEncode, utf8Encode } from "./bytes";
import { CryptoError, guard } from "./errors";
import { EMPTY, checkIterations, hkdfAesKey, hkdfBits, pbkdf2Master } from "./kdf";

/** The canonical form of an email address used as the PBKDF2 salt: trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  if (typeof email !== "string") throw new CryptoError("normalizeEmail", "email must be a string");
  return email.trim().toLowerCase();
}

export async function deriveAccountSecrets(
  password: string,
  email: string,
  iterations: number = PBKDF2_ITERATIONS,
): Promise<{ loginSecret: string; master: CryptoKey }> {
  const fn = "deriveAccountSecrets";
  if (typeof password !== "string" || password.length === 0) throw new CryptoError(fn, "password is required");
  if (typeof email !== "string" || normalizeEmail(email).length === 0) throw new CryptoError(fn, "email is required");
  checkIterations(fn, iterations);
  return guard(fn, "derivation failed", async () => {
    const master = await pbkdf2Master(password, utf8Encode(normalizeEmail(email)), iterations);
    const secret = await hkdfBits(master, EMPTY, LABELS.loginSecret);
    const loginSecret = base64UrlEncode(secret);
    secret.fill(0);
    return { loginSecret, master };
  });
}

export async function deriveWrapKey(master: CryptoKey, userId: string): Promise<CryptoKey> {
  const fn = "deriveWrapKey";
  if (typeof userId !== "string" || userId.length === 0) throw new CryptoError(fn, "userId is required");
  return guard(fn, "invalid master key", () => hkdfAesKey(master, utf8Encode(userId), LABELS.keyWrap));
}
