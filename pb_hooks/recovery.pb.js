// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Account recovery (docs/decisions/0027-recovery-key-and-password-reset.md). Hooks never see a key or
// a password: only keys wrapped in the browser, public keys and the login secret.
//
// POST /api/chat/recovery-key (signed-in)      {wrapped_ecdh, wrapped_rsa} -> {created}
//   Stores the identity keys wrapped under the user's recovery key; a new one replaces the old.
// GET  /api/chat/password-reset                -> {available}: whether reset emails can be sent
// POST /api/chat/password-reset/open           {token} -> {user_id, email, kdf_iterations,
//        ecdh_public_key, rsa_public_key, passkey_unlocks, recovery: {wrapped_ecdh, wrapped_rsa, created} | null}
// POST /api/chat/password-reset/confirm        {token, password, encrypted_ecdh_private_key,
//        encrypted_rsa_private_key, kdf_iterations, ecdh_public_key?, rsa_public_key?} -> {keys}
//   One transaction: the new login secret becomes the password (which gives the account a new token
//   key: the token is used up and every session ends, pocketbase/sessions.go), the keys wrapped for it
//   are stored, and with new public keys (no recovery key) the old identity is replaced.
// The email itself is PocketBase's request-password-reset, limited here per address.

routerAdd(
  "POST",
  "/api/chat/recovery-key",
  (e) => {
    const { requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const { WRAPPED, saveRecoveryKey } = require(`${__hooks}/lib/recovery.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const wrappedEcdh = matching(body, "wrapped_ecdh", WRAPPED, "wrapped_ecdh must be a wrapped private key.");
    const wrappedRsa = matching(body, "wrapped_rsa", WRAPPED, "wrapped_rsa must be a wrapped private key.");
    /** @type {core.Record | null} */
    let saved = null;
    e.app.runInTransaction((txApp) => {
      saved = saveRecoveryKey(txApp, user.id, wrappedEcdh, wrappedRsa);
      append(txApp, e, { actor: user.id, action: "recovery_key.created", target: user.id });
    });
    return e.json(200, { created: saved ? /** @type {core.Record} */ (saved).getString("created") : "" });
  },
  $apis.bodyLimit(32 * 1024),
);

routerAdd("GET", "/api/chat/password-reset", (e) => e.json(200, { available: e.app.settings().smtp.enabled }));

// Reset emails: only with SMTP configured (the web app asks GET /api/chat/password-reset first, so an
// unknown address meets the same answer), and counted against the address's limit of emails like
// verification emails. Past a limit nothing is sent and the answer stays the same.
onRecordRequestPasswordResetRequest((e) => {
  const { takeRecipientLimit } = require(`${__hooks}/lib/email_notification.js`);
  if (!e.app.settings().smtp.enabled) {
    e.app.logger().warn("A password reset was asked for, but SMTP is not configured.");
    return e.noContent(204);
  }
  if (!takeRecipientLimit(e.app, e.record.email())) {
    return e.noContent(204);
  }
  return e.next();
}, "users");

// PocketBase's own confirm step would set a password without the keys wrapped for it, leaving an
// account that signs in but cannot open its keys: only /api/chat/password-reset/confirm resets.
onRecordConfirmPasswordResetRequest((e) => {
  const { badRequest } = require(`${__hooks}/lib/errors.js`);
  throw badRequest("Open the link in the email: ChatCrypt's reset page sets the new password.");
}, "users");

routerAdd(
  "POST",
  "/api/chat/password-reset/open",
  (e) => {
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { resetAccount, findRecoveryKey } = require(`${__hooks}/lib/recovery.js`);
    const { accountAddress } = require(`${__hooks}/lib/pending_email.js`);
    const body = readJsonObject(e);
    const user = resetAccount(e.app, body.token);
    let profile = null;
    try {
      profile = e.app.findRecordById("profiles", user.id);
    } catch (_) {
      profile = null;
    }
    const recovery = findRecoveryKey(e.app, user.id);
    // A passkey holding the account's keys (wrapped under its PRF output) keeps them too: the page says
    // to sign in with it instead of resetting (a reset without the recovery key removes passkeys).
    let passkeyUnlocks = false;
    try {
      passkeyUnlocks =
        e.app.findRecordsByFilter("passkeys", "user = {:user} && wrapped_ecdh_private_key != ''", "", 1, 0, { user: user.id }).length > 0;
    } catch (_) {
      passkeyUnlocks = false; // no passkeys on this server
    }
    return e.json(200, {
      user_id: user.id,
      email: accountAddress(user),
      kdf_iterations: user.getInt("kdf_iterations"),
      ecdh_public_key: profile ? profile.getString("ecdh_public_key") : "",
      rsa_public_key: profile ? profile.getString("rsa_public_key") : "",
      passkey_unlocks: passkeyUnlocks,
      recovery: recovery
        ? {
            wrapped_ecdh: recovery.getString("wrapped_ecdh"),
            wrapped_rsa: recovery.getString("wrapped_rsa"),
            created: recovery.getString("created"),
          }
        : null,
    });
  },
  $apis.bodyLimit(8 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/password-reset/confirm",
  (e) => {
    const { badRequest, invalidRecord } = require(`${__hooks}/lib/errors.js`);
    const { readJsonObject, nonEmptyString } = require(`${__hooks}/lib/request.js`);
    const { resetAccount, replaceIdentity } = require(`${__hooks}/lib/recovery.js`);
    const { setLoginAndKeys, wrappedKeysOf } = require(`${__hooks}/lib/account_keys.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);

    const body = readJsonObject(e);
    const password = body.password;
    if (typeof password !== "string" || password.length < 8 || password.length > 71) {
      throw badRequest("Password must be 8 to 71 characters.");
    }
    const keys = wrappedKeysOf(body);
    const newKeys = body.ecdh_public_key !== undefined || body.rsa_public_key !== undefined;
    const publicKeys = newKeys ? { ecdh: nonEmptyString(body, "ecdh_public_key"), rsa: nonEmptyString(body, "rsa_public_key") } : null;

    e.app.runInTransaction((txApp) => {
      // checked inside the transaction: of two requests with one token, only the first resets
      const user = resetAccount(txApp, body.token);
      setLoginAndKeys(user, password, keys);
      // the link reached the address, as PocketBase's own reset takes it
      user.setVerified(true);
      if (publicKeys) {
        replaceIdentity(txApp, user, publicKeys);
      }
      try {
        txApp.save(user);
      } catch (err) {
        throw invalidRecord(err, "The new password could not be saved.");
      }
      // keys kept: the page opened them with the recovery key
      if (!publicKeys) append(txApp, e, { actor: user.id, action: "recovery_key.used", target: user.id });
      append(txApp, e, { actor: user.id, action: "password.reset", target: user.id, details: { keys: publicKeys ? "new" : "kept" } });
    });
    return e.json(200, { keys: publicKeys ? "new" : "kept" });
  },
  $apis.bodyLimit(64 * 1024),
);
