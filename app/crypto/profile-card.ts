/**
 * A person's card (display name and photo), readable by those they share a conversation with
 * (docs/decisions/0075-profile-cards.md):
 *   profile key = 32 random bytes, made in the owner's browser
 *   card        = encryptText(profile key, JSON.stringify(card), "chatcrypt:profile-card:v1:{ownerId}")
 *   sealed key  = encryptText(HKDF-SHA256(ECDH(owner's private, reader's public), salt "profile-key-seal",
 *                 info "chatcrypt profile key seal"), profile key, "chatcrypt:profile-key:v1:{ownerId}:{readerId}")
 * The reader computes the same ECDH secret from the other side; the server holds neither private key,
 * so it can neither open a sealed key nor make one a reader would accept.
 */
import { LABELS } from "./constants";
import { decryptText, encryptText } from "./aead";
import { importItemKey, newItemKey } from "./sign";
import { deriveVaultKey } from "./vault";

const keyAad = (ownerId: string, readerId: string) => `${LABELS.profileKeyPrefix}:${ownerId}:${readerId}`;
const cardAad = (ownerId: string) => `${LABELS.profileCardPrefix}:${ownerId}`;

/** A new random profile key (raw, base64url). */
export const newProfileKey = newItemKey;

/** Seals the owner's profile key to one reader (the owner itself included: its own public key). */
export async function sealProfileKey(p: {
  ecdhPrivateKey: CryptoKey;
  readerPublicKey: CryptoKey;
  ownerId: string;
  readerId: string;
  profileKey: string;
}): Promise<string> {
  const key = await deriveVaultKey(p.ecdhPrivateKey, p.readerPublicKey, "profile");
  return encryptText(key, p.profileKey, keyAad(p.ownerId, p.readerId));
}

/** Opens a profile key sealed to this reader by the owner (throws when altered or sealed to someone else). */
export async function openProfileKey(p: {
  ecdhPrivateKey: CryptoKey;
  ownerPublicKey: CryptoKey;
  ownerId: string;
  readerId: string;
  sealed: string;
}): Promise<string> {
  const key = await deriveVaultKey(p.ecdhPrivateKey, p.ownerPublicKey, "profile");
  return decryptText(key, p.sealed, keyAad(p.ownerId, p.readerId));
}

/** Encrypts a card (any JSON value) under the owner's profile key. */
export async function sealCard(profileKey: string, ownerId: string, card: unknown): Promise<string> {
  return encryptText(await importItemKey(profileKey), JSON.stringify(card), cardAad(ownerId));
}

/** Opens a card; throws when it was altered or belongs to someone else. */
export async function openCard(profileKey: string, ownerId: string, sealed: string): Promise<unknown> {
  return JSON.parse(await decryptText(await importItemKey(profileKey), sealed, cardAad(ownerId))) as unknown;
}
