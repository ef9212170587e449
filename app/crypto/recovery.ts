/**
 * The recovery key: 256 random bits, shown to the user once (as 24 words, app/features/recovery) and
 * never sent anywhere. It wraps the identity private keys a second time, beside the password's wrapping:
 *   recovery wrap key = HKDF-SHA256(ikm = entropy, salt = utf8(userId), info = "chatcrypt recovery key wrap") -> AES-GCM-256
 * with the same envelope as the password's wrap key (keys.ts wrapPrivateKey). No PBKDF2: the key has
 * 256 bits of entropy, so stretching it would add nothing against guessing.
 */
import { LABELS, RECOVERY_KEY_BYTES } from "./constants";
import { utf8Encode, type Bytes } from "./bytes";
import { CryptoError, guard } from "./errors";
import { hkdfAesKey, importHkdfKey } from "./kdf";
import { randomBytes } from "./random";

/** A new recovery key's entropy (RECOVERY_KEY_BYTES random bytes). */
export function newRecoveryEntropy(): Bytes {
  return randomBytes(RECOVERY_KEY_BYTES);
}

/** The AES-GCM key (non-extractable) that a recovery key wraps the user's private keys with. */
export async function deriveRecoveryWrapKey(entropy: Uint8Array, userId: string): Promise<CryptoKey> {
  const fn = "deriveRecoveryWrapKey";
  if (!(entropy instanceof Uint8Array) || entropy.length !== RECOVERY_KEY_BYTES) {
    throw new CryptoError(fn, `entropy must be ${RECOVERY_KEY_BYTES} bytes`);
  }
  if (typeof userId !== "string" || userId.length === 0) throw new CryptoError(fn, "userId is required");
  return guard(fn, "derivation failed", async () => {
    const ikm = await importHkdfKey(entropy as Bytes);
    return hkdfAesKey(ikm, utf8Encode(userId), LABELS.recoveryWrap);
  });
}
