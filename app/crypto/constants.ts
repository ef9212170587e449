/**
 * Sizes and parameters of every cryptographic construction in ChatCrypt.
 * Units are part of each name: BITS, BYTES, CHARS (UTF-16 code units) or a plain count.
 */

/** AES-GCM key size for every symmetric key (message, wrap, contacts, invite, file keys). */
export const AES_KEY_BITS = 256;
/** Random AES-GCM nonce size. */
export const GCM_IV_BYTES = 12;
/** AES-GCM authentication tag size (the Web Crypto default). */
export const GCM_TAG_BYTES = 16;
export const GCM_TAG_BITS = GCM_TAG_BYTES * 8;

/** PBKDF2-HMAC-SHA256 work factor for account and channel passwords (OWASP guidance). */
export const PBKDF2_ITERATIONS = 600_000;
/** PBKDF2 work factor of the invite-link key. The invite secret only travels in the URL fragment. */
export const INVITE_PBKDF2_ITERATIONS = 100_000;
/** Output size of PBKDF2 (the master secret) and of every HKDF-derived secret. */
export const MASTER_SECRET_BITS = 256;
export const DERIVED_SECRET_BITS = 256;

/** ECDH curve of identity keys and its raw shared-secret size. */
export const ECDH_CURVE = "P-384";
export const ECDH_SHARED_SECRET_BITS = 384;

/** RSA-PSS identity signing keys. */
export const RSA_MODULUS_BITS = 2048;
export const RSA_SIGNATURE_BYTES = RSA_MODULUS_BITS / 8;
export const RSA_PUBLIC_EXPONENT = new Uint8Array([0x01, 0x00, 0x01]); // 65537
export const PSS_SALT_BYTES = 32;

/** Hash used by PBKDF2, HKDF and RSA-PSS. */
export const HASH_NAME = "SHA-256";

/** Longest message text a person may send, in UTF-16 code units (String.length). */
export const MAX_MESSAGE_CHARS = 16_000;
/**
 * Room in a message's payload for what it carries beside its text: the marked JSON body's framing,
 * the message it replies to, its thread's root, its own key and its files' fingerprints (about 200
 * bytes for a thread reply with a file).
 */
export const MESSAGE_FRAMING_BYTES = 1_024;
/**
 * Longest plaintext accepted by encryptMessage, in UTF-8 bytes: MAX_MESSAGE_CHARS of the widest text
 * (3 bytes per UTF-16 code unit) with what it carries (`MESSAGE_FRAMING_BYTES`), so the longest text
 * in any script still goes as a reply in a thread. The JSON escapes of quotes and new lines fit too;
 * thousands of control characters may not.
 */
export const MAX_MESSAGE_BYTES = 3 * MAX_MESSAGE_CHARS + MESSAGE_FRAMING_BYTES;
/**
 * Upper bound on the length of a message envelope string for MAX_MESSAGE_BYTES of plaintext
 * (base64url expansion, signature and JSON framing: about 65,800), rounded up. Longer envelopes are
 * refused; the server's column holds 100,000.
 */
export const MAX_MESSAGE_ENVELOPE_CHARS = 68 * 1_024;

/** Entropy of a recovery key: 24 words of the BIP-39 English list carry 256 bits (and an 8-bit checksum). */
export const RECOVERY_KEY_BYTES = 32;

/** Default length of ids made by randomId (PocketBase record id format). */
export const RANDOM_ID_CHARS = 15;

/** Labels bound into derivations, associated data and signatures. Changing any of them breaks existing data. */
export const LABELS = {
  loginSecret: "chatcrypt login secret",
  keyWrap: "chatcrypt key wrap",
  recoveryWrap: "chatcrypt recovery key wrap",
  channelKey: "chatcrypt channel key",
  joinVerifier: "chatcrypt join verifier",
  callBase: "chatcrypt call key base",
  callKey: "chatcrypt call key",
  contactsKey: "chatcrypt contacts key",
  contactsSalt: "whatsapp-contacts",
  keyringKey: "chatcrypt keyring key",
  keyringSalt: "keyring",
  settingsKey: "chatcrypt settings key",
  settingsSalt: "settings",
  searchKey: "chatcrypt search index key",
  searchSalt: "search-index",
  sealedStateKey: "chatcrypt sealed channel state key",
  sealedStateSalt: "sealed-state",
  outboxKey: "chatcrypt outbox key",
  outboxSalt: "outbox",
  draftsKey: "chatcrypt drafts key",
  draftsSalt: "drafts",
  archiveKey: "chatcrypt message archive key",
  archiveSalt: "message-archive",
  archiveGiftKey: "chatcrypt message archive gift key",
  archiveGiftSalt: "message-archive-gift",
  inviteSalt: "channel-invite",
  shareKey: "chatcrypt channel password share key",
  shareSalt: "channel-password-share",
  profileKey: "chatcrypt profile key seal",
  profileSalt: "profile-key-seal",
  profileCardPrefix: "chatcrypt:profile-card:v1",
  profileKeyPrefix: "chatcrypt:profile-key:v1",
  sharePrefix: "chatcrypt:share:v1",
  messagePrefix: "chatcrypt:msg:v1",
  wrapPrefix: "chatcrypt",
  passkeyPrfSalt: "chatcrypt passkey prf v1",
  passkeyWrap: "chatcrypt passkey key wrap",
  deviceLinkKey: "chatcrypt device link key",
  deviceLinkCode: "chatcrypt device link code",
  deviceLinkPrefix: "chatcrypt:device-link:v1",
} as const;
