/**
 * The identity private keys wrapped together under one wrap key (the password's or the recovery key's),
 * and opened together, checked against the account's public keys.
 */
import { CryptoError } from "./errors";
import {
  exportKeyBundle,
  importEcdhPublicKey,
  importKeyBundle,
  importRsaPublicKey,
  unwrapPrivateKey,
  wrapPrivateKey,
  type KeyBundle,
  type StoredKeyBundle,
} from "./keys";

export interface WrappedIdentity {
  ecdh: string;
  rsa: string;
}

/** Both private keys of a bundle wrapped under `wrapKey`, bound to the user. */
export async function wrapIdentityKeys(
  bundle: Pick<KeyBundle, "ecdhPrivateKey" | "rsaPrivateKey">,
  wrapKey: CryptoKey,
  userId: string,
): Promise<WrappedIdentity> {
  const [ecdh, rsa] = await Promise.all([
    wrapPrivateKey(bundle.ecdhPrivateKey, wrapKey, "ecdh", userId),
    wrapPrivateKey(bundle.rsaPrivateKey, wrapKey, "rsa", userId),
  ]);
  return { ecdh, rsa };
}

/**
 * Opens both wrapped private keys and checks them against the account's public keys (base64 SPKI):
 * the bundle and its stored form. Errors: unwrapPrivateKey's when a key does not open,
 * "unwrapIdentityKeys: public key does not match private key" when they are not the account's.
 */
export async function unwrapIdentityKeys(
  wrapped: WrappedIdentity,
  wrapKey: CryptoKey,
  userId: string,
  publicKeys: { ecdh: string; rsa: string },
): Promise<{ bundle: KeyBundle; stored: StoredKeyBundle }> {
  const fn = "unwrapIdentityKeys";
  const [ecdhPrivateKey, rsaPrivateKey] = await Promise.all([
    unwrapPrivateKey(wrapped.ecdh, wrapKey, "ecdh", userId),
    unwrapPrivateKey(wrapped.rsa, wrapKey, "rsa", userId),
  ]);
  const [ecdhPublicKey, rsaPublicKey] = await Promise.all([importEcdhPublicKey(publicKeys.ecdh), importRsaPublicKey(publicKeys.rsa)]);
  const stored = await exportKeyBundle({ ecdhPrivateKey, rsaPrivateKey, ecdhPublicKey, rsaPublicKey });
  try {
    await importKeyBundle(stored);
  } catch (error) {
    throw new CryptoError(fn, "public key does not match private key", { cause: error });
  }
  return { bundle: { ecdhPrivateKey, rsaPrivateKey, ecdhPublicKey, rsaPublicKey }, stored };
}
