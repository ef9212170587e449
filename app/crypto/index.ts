/**
 * ChatCrypt's end-to-end encryption: the only module the rest of the app imports.
 * Pure Web Crypto (globalThis.crypto.subtle), so the same code runs in the browser and in Node 20.
 */
export {
  AES_KEY_BITS,
  GCM_IV_BYTES,
  GCM_TAG_BYTES,
  PBKDF2_ITERATIONS,
  INVITE_PBKDF2_ITERATIONS,
  RSA_MODULUS_BITS,
  PSS_SALT_BYTES,
  ECDH_CURVE,
  MAX_MESSAGE_BYTES,
  MAX_MESSAGE_CHARS,
  MAX_MESSAGE_ENVELOPE_CHARS,
  RANDOM_ID_CHARS,
  RECOVERY_KEY_BYTES,
} from "./constants";
export { CryptoError } from "./errors";
export { normalizeEmail, deriveAccountSecrets, deriveWrapKey } from "./account";
export { PASSKEY_PRF_SALT, derivePasskeyWrapKey } from "./passkey";
export { newRecoveryEntropy, deriveRecoveryWrapKey } from "./recovery";
export { wrapIdentityKeys, unwrapIdentityKeys } from "./identity";
export type { WrappedIdentity } from "./identity";
export {
  generateKeyBundle,
  exportKeyBundle,
  importKeyBundle,
  exportPublicKey,
  importEcdhPublicKey,
  importRsaPublicKey,
  wrapPrivateKey,
  unwrapPrivateKey,
} from "./keys";
export type { KeyBundle, StoredKeyBundle, PrivateKeyKind } from "./keys";
export { deriveContactsKey, deriveVaultKey } from "./vault";
export { openGift, sealGift, type GiftContext } from "./gift";
export type { VaultPurpose } from "./vault";
export {
  CHANNEL_MASTER_BYTES,
  deriveChannelMaster,
  channelSecretsFromMaster,
  deriveChannelSecrets,
  encryptInvitePassword,
  decryptInvitePassword,
  encryptInviteName,
  decryptInviteName,
} from "./channel";
export type { ChannelSecrets } from "./channel";
export { encryptMessage, decryptMessage } from "./message";
export { deriveCallKey, CALL_KEY_BYTES } from "./call";
export { encryptBytes, decryptBytes, encryptText, decryptText } from "./aead";
export { sha256Base64, sha256Bytes } from "./kdf";
export { randomUuid, randomId } from "./random";
export { safetyNumber } from "./safety";
export type { IdentityKeys } from "./safety";
export { signLabelled, verifyLabelled, newItemKey, importItemKey } from "./sign";
export { newLinkKeyPair, linkCode, sealForDevice, openFromDevice } from "./link";
export type { LinkKeyPair } from "./link";
export { sealShare, openShare } from "./share";
export type { ShareContext } from "./share";
export { newProfileKey, sealProfileKey, openProfileKey, sealCard, openCard } from "./profile-card";
