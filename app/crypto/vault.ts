/**
 * Vault keys: keys only the holder of the user's own ECDH private key can compute, one per purpose
 * (contacts, keyring, settings, the local search index, sealed-channel state, outbox, message archive).
 */
import { ECDH_SHARED_SECRET_BITS, LABELS } from "./constants";
import { utf8Encode } from "./bytes";
import { CryptoError, guard } from "./errors";
import { subtle } from "./platform";
import { hkdfAesKey, importHkdfKey } from "./kdf";
import { keyMatches } from "./keys";

/** What a key derived from the user's own key pair protects; each has its own HKDF salt and label. */
export type VaultPurpose =
  "contacts" | "keyring" | "settings" | "search" | "sealed" | "outbox" | "drafts" | "archive" | "gift" | "share" | "profile";

const VAULT_LABELS: Record<VaultPurpose, { salt: string; info: string; fn: string }> = {
  contacts: { salt: LABELS.contactsSalt, info: LABELS.contactsKey, fn: "deriveContactsKey" },
  keyring: { salt: LABELS.keyringSalt, info: LABELS.keyringKey, fn: "deriveVaultKey" },
  settings: { salt: LABELS.settingsSalt, info: LABELS.settingsKey, fn: "deriveVaultKey" },
  search: { salt: LABELS.searchSalt, info: LABELS.searchKey, fn: "deriveVaultKey" },
  sealed: { salt: LABELS.sealedStateSalt, info: LABELS.sealedStateKey, fn: "deriveVaultKey" },
  outbox: { salt: LABELS.outboxSalt, info: LABELS.outboxKey, fn: "deriveVaultKey" },
  drafts: { salt: LABELS.draftsSalt, info: LABELS.draftsKey, fn: "deriveVaultKey" },
  archive: { salt: LABELS.archiveSalt, info: LABELS.archiveKey, fn: "deriveVaultKey" },
  // between a fresh key pair of a message's sender and a member's public key: the message kept for them (gift.ts)
  gift: { salt: LABELS.archiveGiftSalt, info: LABELS.archiveGiftKey, fn: "deriveVaultKey" },
  // between two users' key pairs (one's private, the other's public): a channel password sealed to a member (share.ts)
  share: { salt: LABELS.shareSalt, info: LABELS.shareKey, fn: "deriveVaultKey" },
  // between two users' key pairs: a profile key sealed to a reader (profile-card.ts)
  profile: { salt: LABELS.profileSalt, info: LABELS.profileKey, fn: "deriveVaultKey" },
};

/**
 * A private vault key: HKDF-SHA256 over the ECDH shared secret of the user's own key pair, with the
 * purpose's salt and info (contacts: "whatsapp-contacts" / "chatcrypt contacts key"; keyring: "keyring" /
 * "chatcrypt keyring key"; settings: "settings" / "chatcrypt settings key"; search: "search-index" /
 * "chatcrypt search index key", the local message search index; sealed: "sealed-state" / "chatcrypt sealed
 * channel state key", this device's MLS state of its sealed channels; outbox: "outbox" / "chatcrypt outbox
 * key", the messages this device has not sent yet; drafts: "drafts" / "chatcrypt drafts key", the text typed
 * and not sent in each conversation; archive: "message-archive" / "chatcrypt message archive
 * key", what the user's devices read in sealed conversations, kept on the server, ADR 0048) -> non-extractable
 * AES-GCM-256. Only the holder of the ECDH private key, which is wrapped under the account's wrap key,
 * can compute it.
 */
export async function deriveVaultKey(ecdhPrivateKey: CryptoKey, ecdhPublicKey: CryptoKey, purpose: VaultPurpose): Promise<CryptoKey> {
  const labels = VAULT_LABELS[purpose];
  const fn = labels?.fn ?? "deriveVaultKey";
  if (!labels) throw new CryptoError(fn, "unknown purpose");
  if (!keyMatches(ecdhPrivateKey, "ecdh", "private") || !keyMatches(ecdhPublicKey, "ecdh", "public")) {
    throw new CryptoError(fn, "invalid key");
  }
  return guard(fn, "invalid key", async () => {
    const shared = new Uint8Array(
      await subtle().deriveBits({ name: "ECDH", public: ecdhPublicKey }, ecdhPrivateKey, ECDH_SHARED_SECRET_BITS),
    );
    try {
      const master = await importHkdfKey(shared);
      return await hkdfAesKey(master, utf8Encode(labels.salt), labels.info);
    } finally {
      shared.fill(0);
    }
  });
}

/** The contact book key (the "contacts" vault key). */
export const deriveContactsKey = (ecdhPrivateKey: CryptoKey, ecdhPublicKey: CryptoKey) =>
  deriveVaultKey(ecdhPrivateKey, ecdhPublicKey, "contacts");
