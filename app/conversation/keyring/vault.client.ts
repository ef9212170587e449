import { decryptText, deriveVaultKey, encryptText, type VaultPurpose } from "~/crypto";
import { KeysMissingError } from "~/lib/errors";
import { deviceKeys } from "~/lib/device-keys.client";

// Private vault keys come from the user's own ECDH key pair (design.md §3), never from public data;
// derived once per page and purpose.
const keys = new Map<string, Promise<CryptoKey>>();

export function vaultKey(userId: string, purpose: VaultPurpose): Promise<CryptoKey> {
  const cacheKey = `${userId}:${purpose}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = deviceKeys(userId).then((bundle) => {
      if (!bundle) throw new KeysMissingError();
      return deriveVaultKey(bundle.ecdhPrivateKey, bundle.ecdhPublicKey, purpose);
    });
    keys.set(cacheKey, key);
    key.catch(() => keys.delete(cacheKey));
  }
  return key;
}

/** Encrypts a JSON value into a vault, bound to the associated data given. */
export async function sealJson(userId: string, purpose: VaultPurpose, value: unknown, aad: string): Promise<string> {
  return encryptText(await vaultKey(userId, purpose), JSON.stringify(value), aad);
}

/** Opens what sealJson produced; throws when it was altered or bound to something else. */
export async function openJson(userId: string, purpose: VaultPurpose, sealed: string, aad: string): Promise<unknown> {
  return JSON.parse(await decryptText(await vaultKey(userId, purpose), sealed, aad)) as unknown;
}

/** Forgets the derived keys (sign-out). */
export function forgetVaultKeys() {
  keys.clear();
}
