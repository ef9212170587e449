// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Creating an account: the "users" record (login secret, wrapped private keys, default settings) and
// its public "profiles" record with the same id, with the role a new account gets. One writer for the
// password sign-up (signup.pb.js) and single sign-on's (sso.pb.js).

const { badRequest, invalidRecord } = require(`${__hooks}/lib/errors.js`);
const { roleForNewAccount } = require(`${__hooks}/lib/roles.js`);
const { setLoginAndKeys } = require(`${__hooks}/lib/account_keys.js`);

const EMAIL_TAKEN = "An account with this email already exists.";
const USERNAME_TAKEN = "This username is already taken.";
const USERNAME_INVALID = "Username must be 3-32 characters: letters, digits, dot, dash or underscore.";
const EMAIL_INVALID = "Please enter a valid email address.";

/**
 * Creates the account in the caller's transaction; a 400 with a readable message when the email,
 * username or id is taken or invalid. A password sign-up passes its address as pendingEmail (and
 * email ""): a taken one is no error (lib/pending_email.js).
 * @param {core.App} txApp
 * @param {{ id: string, email: string, pendingEmail?: string, password: string, verified: boolean, username: string,
 *   ecdhPublicKey: string, rsaPublicKey: string, wrappedEcdhKey: string, wrappedRsaKey: string, kdfIterations: number }} a
 * @returns {core.Record} the "users" record
 */
function createAccount(txApp, a) {
  // Writes are serialized by PocketBase, so the checks below cannot race with another sign-up;
  // the unique indexes on email and username stay the last line of defence.
  const sameEmail = a.email ? txApp.countRecords("users", $dbx.exp("email = {:email} COLLATE NOCASE", { email: a.email })) : 0;
  if (sameEmail > 0) {
    throw badRequest(EMAIL_TAKEN);
  }

  const sameName = txApp.countRecords("profiles", $dbx.exp("username = {:username} COLLATE NOCASE", { username: a.username }));
  if (sameName > 0) {
    throw badRequest(USERNAME_TAKEN);
  }

  // a deleted account's id stays taken: its messages stay under it (pb_hooks/lib/account_data.js)
  const sameId = ["users", "profiles", "deleted_accounts"].reduce((n, name) => n + txApp.countRecords(name, $dbx.hashExp({ id: a.id })), 0);
  if (sameId > 0) {
    throw badRequest("An account with this ID already exists.");
  }

  const user = new Record(txApp.findCollectionByNameOrId("users"));
  user.set("id", a.id);
  user.setEmail(a.email);
  user.set("pending_email", a.pendingEmail || "");
  setLoginAndKeys(user, a.password, { ecdh: a.wrappedEcdhKey, rsa: a.wrappedRsaKey, iterations: a.kdfIterations });
  user.setVerified(a.verified);
  // Other settings are encrypted in the browser (encrypted_settings); empty means the defaults.
  user.set("email_notifications_enabled", false);
  user.set("email_include_content", false);

  try {
    txApp.save(user);
  } catch (err) {
    throw invalidRecord(err, "Sign up failed: invalid account data.", {
      email: (detail) => (/unique/i.test(detail) ? EMAIL_TAKEN : EMAIL_INVALID),
      id: "An account with this ID already exists.",
    });
  }

  const profile = new Record(txApp.findCollectionByNameOrId("profiles"));
  profile.set("id", a.id);
  profile.set("role", roleForNewAccount(txApp));
  profile.set("username", a.username);
  profile.set("ecdh_public_key", a.ecdhPublicKey);
  profile.set("rsa_public_key", a.rsaPublicKey);

  try {
    txApp.save(profile);
  } catch (err) {
    throw invalidRecord(err, "Sign up failed: invalid profile data.", {
      username: (detail) => (/unique/i.test(detail) ? USERNAME_TAKEN : USERNAME_INVALID),
      id: "An account with this ID already exists.",
    });
  }
  return user;
}

/**
 * The keys and username of a sign-up body, checked (400 otherwise).
 * @param {JsonObject} body
 */
function signUpKeys(body) {
  const { patterns, matching, nonEmptyString, wholeNumber } = require(`${__hooks}/lib/request.js`);
  const id = matching(body, "id", patterns.userId, "User ID must be 15 lowercase letters or digits.");
  if (typeof body.username !== "string") {
    throw badRequest(USERNAME_INVALID);
  }
  const username = body.username.trim();
  if (!patterns.username.test(username)) {
    throw badRequest(USERNAME_INVALID);
  }
  return {
    id,
    username,
    ecdhPublicKey: nonEmptyString(body, "ecdh_public_key"),
    rsaPublicKey: nonEmptyString(body, "rsa_public_key"),
    wrappedEcdhKey: nonEmptyString(body, "encrypted_ecdh_private_key"),
    wrappedRsaKey: nonEmptyString(body, "encrypted_rsa_private_key"),
    kdfIterations: wholeNumber(body, "kdf_iterations"),
  };
}

module.exports = { createAccount, signUpKeys, EMAIL_INVALID };
