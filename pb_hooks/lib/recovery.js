// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Account recovery (docs/decisions/0027-recovery-key-and-password-reset.md): the recovery key's
// wrapping of the identity keys, the reset token check, and what a reset without the recovery key
// forgets. Hooks never see a key: only wrapped keys, public keys and the login secret.

const { badRequest } = require(`${__hooks}/lib/errors.js`);
// (the recovery key wraps the identity keys the way the password's key does)
const { WRAPPED } = require(`${__hooks}/lib/account_keys.js`);

const INVALID_LINK = "This reset link is invalid, has expired or was already used. Ask for a new one from the sign-in screen.";

// The account a password-reset token was issued for, checked with PocketBase's own token check
// (signature under the account's token key, type and expiry); a used token no longer checks out,
// because setting the password gives the account a new token key. The token must also name the
// account's current email address (the key derivation's salt). Anything else is a 400.
/**
 * @param {core.App} app
 * @param {unknown} token
 * @returns {core.Record}
 */
function resetAccount(app, token) {
  if (typeof token !== "string" || token.length === 0 || token.length > 4096) {
    throw badRequest(INVALID_LINK);
  }
  let record;
  try {
    record = app.findAuthRecordByToken(token, "passwordReset");
  } catch (_) {
    throw badRequest(INVALID_LINK);
  }
  if (!record || record.collection().name !== "users") {
    throw badRequest(INVALID_LINK);
  }
  let claims;
  try {
    claims = $security.parseUnverifiedJWT(token);
  } catch (_) {
    throw badRequest(INVALID_LINK);
  }
  if (!claims || String(claims.email || "").toLowerCase() !== record.email().toLowerCase()) {
    throw badRequest(INVALID_LINK);
  }
  return record;
}

// The user's recovery wrapping, or null.
/**
 * @param {core.App} app
 * @param {string} userId
 * @returns {core.Record | null}
 */
function findRecoveryKey(app, userId) {
  return app.findRecordsByFilter("recovery_keys", "user = {:user}", "", 1, 0, { user: userId })[0] || null;
}

// Stores (or replaces) the user's recovery wrapping.
/**
 * @param {core.App} txApp
 * @param {string} userId
 * @param {string} wrappedEcdh
 * @param {string} wrappedRsa
 * @returns {core.Record}
 */
function saveRecoveryKey(txApp, userId, wrappedEcdh, wrappedRsa) {
  const { invalidRecord } = require(`${__hooks}/lib/errors.js`);
  const record = findRecoveryKey(txApp, userId) || new Record(txApp.findCollectionByNameOrId("recovery_keys"));
  record.set("user", userId);
  record.set("wrapped_ecdh", wrappedEcdh);
  record.set("wrapped_rsa", wrappedRsa);
  try {
    txApp.save(record);
  } catch (err) {
    throw invalidRecord(err, "The recovery key could not be saved.");
  }
  return record;
}

// Deletes the records of `collection` whose `field` is the user.
/**
 * @param {core.App} txApp
 * @param {string} collection
 * @param {string} field
 * @param {string} userId
 */
function deleteOwned(txApp, collection, field, userId) {
  const records = txApp.findRecordsByFilter(collection, `${field} = {:user}`, "", 0, 0, { user: userId });
  for (const record of records) {
    txApp.delete(record);
  }
}

// A reset without the recovery key: the account gets new identity keys. What was sealed under keys
// derived from the old ones cannot be opened by anyone any more, so it goes: the keyring (channel
// passwords), the key pins and their head, the contact book, the private settings, the recovery
// wrapping, the MLS key packages signed by the old identity key, the message archive (ADR 0048) and
// the user's passkeys (their wrappings hold the old keys) when that collection exists. The new public keys go on the profile,
// where every contact's key pinning sees the change.
/**
 * @param {core.App} txApp
 * @param {core.Record} user
 * @param {{ ecdh: string, rsa: string }} publicKeys
 */
function replaceIdentity(txApp, user, publicKeys) {
  const { invalidRecord } = require(`${__hooks}/lib/errors.js`);
  const id = user.id;
  const profile = txApp.findRecordById("profiles", id);
  profile.set("ecdh_public_key", publicKeys.ecdh);
  profile.set("rsa_public_key", publicKeys.rsa);
  try {
    txApp.save(profile);
  } catch (err) {
    throw invalidRecord(err, "The new public keys could not be saved.");
  }
  txApp
    .db()
    .newQuery("UPDATE channel_members SET ecdh_public_key = {:key} WHERE user = {:user}")
    .bind({ key: publicKeys.ecdh, user: id })
    .execute();

  deleteOwned(txApp, "keyring_entries", "user", id);
  deleteOwned(txApp, "key_pins", "owner", id);
  deleteOwned(txApp, "key_pin_heads", "owner", id);
  deleteOwned(txApp, "whatsapp_contacts", "user", id);
  deleteOwned(txApp, "recovery_keys", "user", id);
  deleteOwned(txApp, "mls_key_packages", "user", id);
  deleteOwned(txApp, "message_archive", "owner", id);
  user.set("encrypted_settings", "");

  let passkeys = null;
  try {
    passkeys = txApp.findCollectionByNameOrId("passkeys");
  } catch (_) {
    passkeys = null; // no passkeys on this server
  }
  if (passkeys) {
    const usersId = user.collection().id;
    for (const field of passkeys.fields) {
      if (field.type() === "relation" && /** @type {any} */ (field).collectionId === usersId) {
        deleteOwned(txApp, passkeys.name, field.getName(), id);
      }
    }
  }
}

module.exports = { WRAPPED, INVALID_LINK, resetAccount, findRecoveryKey, saveRecoveryKey, replaceIdentity };
