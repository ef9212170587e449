/**
 * A passkey that has the WebAuthn PRF extension unlocks the identity keys (docs/decisions/0028-passkeys.md).
 * Asked with the fixed salt PASSKEY_PRF_SALT, the authenticator answers 32 secret bytes of its own for
 * that credential; they stay in the browser:
 *   passkey wrap key = HKDF-SHA256(prfOutput, salt = utf8(userId), info = "chatcrypt passkey key wrap:" + credentialId)
 *                      -> AES-GCM-256, non-extractable
 * It wraps the identity private keys a third time, with wrapPrivateKey (as the password's wrap key does).
 */
import { LABELS } from "./constants";
import { utf8Encode, type Bytes } from "./bytes";
import { CryptoError, guard } from "./errors";
import { hkdfAesKey, importHkdfKey } from "./kdf";

const PRF_OUTPUT_BYTES = 32;

/** The PRF input every passkey is asked for (the browser hashes it with its own "WebAuthn PRF" prefix). */
export const PASSKEY_PRF_SALT: Bytes = utf8Encode(LABELS.passkeyPrfSalt);

export async function derivePasskeyWrapKey(prfOutput: Uint8Array, userId: string, credentialId: string): Promise<CryptoKey> {
  const fn = "derivePasskeyWrapKey";
  if (!(prfOutput instanceof Uint8Array) || prfOutput.length !== PRF_OUTPUT_BYTES)
    throw new CryptoError(fn, "the PRF output must be 32 bytes");
  if (typeof userId !== "string" || userId.length === 0) throw new CryptoError(fn, "userId is required");
  if (typeof credentialId !== "string" || !/^[A-Za-z0-9_-]{22,1364}$/.test(credentialId))
    throw new CryptoError(fn, "credentialId must be base64url");
  return guard(fn, "derivation failed", async () => {
    const master = await importHkdfKey(new Uint8Array(prfOutput) as Bytes);
    return hkdfAesKey(master, utf8Encode(userId), `${LABELS.passkeyWrap}:${credentialId}`);
  });
}
