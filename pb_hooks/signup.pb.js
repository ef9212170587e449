// @ts-check
/// <reference path="../types/hooks.d.ts" />

// POST /api/chat/signup (public)
//
// Creates an account: the "users" record (login secret, wrapped private keys, default settings)
// and its public "profiles" record with the same id, in one transaction (lib/accounts.js). Answers
// like a password sign-in: {"token", "record"}. The address stays pending until the link mailed to
// it is opened; a taken address gets a mail saying what happened instead, and the answer is the same
// (lib/pending_email.js, docs/decisions/0082-pending-email-at-sign-up.md).
//
// Body: {id, email, password, username, ecdh_public_key, rsa_public_key,
//        encrypted_ecdh_private_key, encrypted_rsa_private_key, kdf_iterations}
// The browser chooses the id because the key that wraps the private keys is derived with it.
// "password" is the login secret derived in the browser, not the user's password.
// While the workspace requires single sign-on, a sign-up with a password is refused (403).
routerAdd(
  "POST",
  "/api/chat/signup",
  (e) => {
    const { badRequest } = require(`${__hooks}/lib/errors.js`);
    const { patterns, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const { createAccount, signUpKeys, EMAIL_INVALID } = require(`${__hooks}/lib/accounts.js`);
    const { refusePasswordWhenRequired } = require(`${__hooks}/lib/sso_settings.js`);
    const { mailPendingAddress } = require(`${__hooks}/lib/pending_email.js`);

    const body = readJsonObject(e);
    // the checks in the order they always had: id, email, password, username, keys
    matching(body, "id", patterns.userId, "User ID must be 15 lowercase letters or digits.");

    if (typeof body.email !== "string") {
      throw badRequest(EMAIL_INVALID);
    }
    const email = body.email.trim().toLowerCase();
    if (email.length > 254 || !patterns.email.test(email)) {
      throw badRequest(EMAIL_INVALID);
    }

    const password = body.password;
    if (typeof password !== "string" || password.length < 8 || password.length > 71) {
      throw badRequest("Password must be 8 to 71 characters.");
    }
    const keys = signUpKeys(body);
    refusePasswordWhenRequired(e.app, null);

    /** @type {core.Record | null} */
    let user = null;
    e.app.runInTransaction((txApp) => {
      user = createAccount(txApp, { ...keys, email: "", pendingEmail: email, password, verified: false });
    });
    mailPendingAddress(e.app, /** @type {core.Record} */ (/** @type {unknown} */ (user)));

    // the audit log records it as the account's creation, not a sign-in (audit_events.pb.js)
    e.set("chatcrypt.signup", true);
    return $apis.recordAuthResponse(e, /** @type {core.Record} */ (/** @type {unknown} */ (user)), "password", null);
  },
  $apis.bodyLimit(64 * 1024),
); // two wrapped private keys of at most 8000 characters each, and a little more
