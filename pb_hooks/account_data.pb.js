// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The account's email address, its deletion and its data (docs/decisions/0029-change-email-delete-export.md).
// "password" is always the login secret the browser derives, never the user's password; wrong ones
// count against the account's sign-in limits (lib/signin.js).
//
//   POST /api/chat/account/email-change          (signed in) {new_email, password}
//        emails a link to the new address; nothing changes yet.
//   POST /api/chat/account/email-change/check    (the link's token) {token}
//        {email, new_email} while the link still works, or 400: the page says so before asking the password.
//   POST /api/chat/account/email-change/keys     (the link's token) {token, password}
//        the account's wrapped private keys, for the page to wrap them again for the new address.
//   POST /api/chat/account/email-change/confirm  (the link's token) {token, password, new_password,
//        encrypted_ecdh_private_key, encrypted_rsa_private_key, kdf_iterations}
//        sets the address, the login secret and the wrapped keys in one transaction; every session ends.
//   POST /api/chat/account/delete                (signed in) {password, dry_run?}
//        deletes the account; with dry_run, only checks the password and says what would happen.
//   GET  /api/chat/account/export                (signed in) what the server holds about the caller.

routerAdd(
  "POST",
  "/api/chat/account/email-change",
  (e) => {
    const { badRequest, tooManyRequests } = require(`${__hooks}/lib/errors.js`);
    const { patterns, readJsonObject, requireUser } = require(`${__hooks}/lib/request.js`);
    const { checkLoginSecret, emailTaken, tellTakenAddress } = require(`${__hooks}/lib/account_data.js`);
    const { TOO_MANY_TO_ADDRESS, takeRecipientLimit } = require(`${__hooks}/lib/email_notification.js`);

    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const newEmail = typeof body.new_email === "string" ? body.new_email.trim().toLowerCase() : "";
    if (newEmail.length > 254 || !patterns.email.test(newEmail)) throw badRequest("Please enter a valid email address.");
    const { accountAddress } = require(`${__hooks}/lib/pending_email.js`);
    if (newEmail === accountAddress(user).toLowerCase()) throw badRequest("This is already your email address.");
    if (!e.app.settings().smtp.enabled) throw badRequest("Email is not configured on this server.");
    checkLoginSecret(e.app, user, body.password);
    // the same answer whether the address has an account or not; its owner is told instead (issue 47)
    if (!takeRecipientLimit(e.app, newEmail)) throw tooManyRequests(TOO_MANY_TO_ADDRESS);
    if (emailTaken(e.app, newEmail)) {
      tellTakenAddress(e.app, newEmail);
      return e.json(200, { sent: true, newEmail });
    }
    // the link names the address the login secret was derived with, also while it is pending (the
    // record is not saved: only the token and the mail see it)
    user.setEmail(accountAddress(user));
    try {
      $mails.sendRecordChangeEmail(e.app, user, newEmail);
    } catch (err) {
      e.app.logger().warn("email change: the email could not be sent", "error", String(err));
      throw new ApiError(502, "The email could not be sent. Please try again later.");
    }
    return e.json(200, { sent: true, newEmail });
  },
  $apis.bodyLimit(16 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/account/email-change/check",
  (e) => {
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { emailChangeOf } = require(`${__hooks}/lib/account_data.js`);
    const { accountAddress } = require(`${__hooks}/lib/pending_email.js`);

    const { record, newEmail } = emailChangeOf(e.app, readJsonObject(e).token);
    return e.json(200, { email: accountAddress(record), new_email: newEmail });
  },
  $apis.bodyLimit(8 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/account/email-change/keys",
  (e) => {
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { checkLoginSecret, emailChangeOf } = require(`${__hooks}/lib/account_data.js`);
    const { accountAddress } = require(`${__hooks}/lib/pending_email.js`);

    const body = readJsonObject(e);
    const { record, newEmail } = emailChangeOf(e.app, body.token);
    checkLoginSecret(e.app, record, body.password);
    return e.json(200, {
      id: record.id,
      // the address the login secret was derived with, also while it is pending
      email: accountAddress(record),
      new_email: newEmail,
      encrypted_ecdh_private_key: record.getString("encrypted_ecdh_private_key"),
      encrypted_rsa_private_key: record.getString("encrypted_rsa_private_key"),
      kdf_iterations: record.getInt("kdf_iterations"),
    });
  },
  $apis.bodyLimit(16 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/account/email-change/confirm",
  (e) => {
    const { badRequest, invalidRecord } = require(`${__hooks}/lib/errors.js`);
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { checkLoginSecret, emailChangeOf, emailTaken, tellOldAddress } = require(`${__hooks}/lib/account_data.js`);
    const { setLoginAndKeys, wrappedKeysOf } = require(`${__hooks}/lib/account_keys.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);

    const body = readJsonObject(e);
    const { record, newEmail } = emailChangeOf(e.app, body.token);
    const newSecret = body.new_password;
    if (typeof newSecret !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(newSecret)) throw badRequest("new_password must be a login secret.");
    const keys = wrappedKeysOf(body);
    checkLoginSecret(e.app, record, body.password);

    e.app.runInTransaction((txApp) => {
      if (emailTaken(txApp, newEmail)) throw badRequest("An account with this email already exists.");
      const user = txApp.findRecordById("users", record.id);
      user.setEmail(newEmail);
      user.set("pending_email", "");
      // the link reached the new address: it is verified
      user.setVerified(true);
      setLoginAndKeys(user, newSecret, keys);
      try {
        // PocketBase gives the account a new token key: every session (and this link) stops working
        txApp.save(user);
      } catch (err) {
        throw invalidRecord(err, "The email address could not be changed.", {
          email: (detail) =>
            /unique/i.test(detail) ? "An account with this email already exists." : "Please enter a valid email address.",
        });
      }
      append(txApp, e, { actor: record.id, action: "email.changed", target: record.id });
    });
    // a pending address was never the account's: it is not told
    if (record.email()) tellOldAddress(e.app, record.email(), newEmail);
    return e.json(200, { id: record.id, email: newEmail });
  },
  $apis.bodyLimit(64 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/account/delete",
  (e) => {
    const { readJsonObject, requireUser } = require(`${__hooks}/lib/request.js`);
    const { checkLoginSecret, deleteAccount, deletionPlan } = require(`${__hooks}/lib/account_data.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);

    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    checkLoginSecret(e.app, user, body.password);
    // the page checks the password (and learns what happens to the user's channels) before it
    // takes the user off their direct conversations' lists
    if (body.dry_run === true) return e.json(200, { deleted: false, ...deletionPlan(e.app, user) });
    const header = String(e.request.header.get("Authorization") || "");
    const token = /^bearer /i.test(header) ? header.slice(7) : header;
    /** @type {{ channelsHandedOver: number, channelsDeleted: number } | null} */
    let result = null;
    e.app.runInTransaction((txApp) => {
      result = deleteAccount(txApp, user, token);
      append(txApp, e, {
        actor: user.id,
        action: "account.deleted",
        target: user.id,
        details: { channels_handed_over: result.channelsHandedOver, channels_deleted: result.channelsDeleted },
      });
    });
    return e.json(200, { deleted: true, ...result });
  },
  $apis.bodyLimit(16 * 1024),
);

routerAdd("GET", "/api/chat/account/export", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { exportAccount } = require(`${__hooks}/lib/account_export.js`);
  const { append } = require(`${__hooks}/lib/audit.js`);
  const user = requireUser(e, "Not authenticated");
  const data = exportAccount(e.app, user);
  append(e.app, e, { actor: user.id, action: "account.exported", target: user.id });
  return e.json(200, data);
});

// PocketBase's own email-change routes would change the address without the login secret and the
// wrapped keys derived from it, leaving an account nobody can sign in to: the routes above replace them.
onRecordRequestEmailChangeRequest((e) => {
  const { badRequest } = require(`${__hooks}/lib/errors.js`);
  throw badRequest("Change your email address in Menu > Account.");
}, "users");

onRecordConfirmEmailChangeRequest((e) => {
  const { badRequest } = require(`${__hooks}/lib/errors.js`);
  throw badRequest("Confirm your new email address on the page the email links to.");
}, "users");
