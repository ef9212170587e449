// @ts-check
/// <reference path="../types/hooks.d.ts" />

// POST /api/chat/password (signed in as a user)
//
// Changes the account password in one step: checks the current login secret, then in one
// transaction sets the new login secret as PocketBase's password and stores the private keys the
// browser wrapped again under the new password's wrap key. The new password gives the account a new
// token key, which voids every token of the account; pocketbase/devices.go ends every session in the
// same transaction (their live streams close). The caller's own session goes on with a new token,
// answered like a sign-in ({"token", "record"}), and keeps its first sight in Devices. Nothing
// changes when any step fails: the old password keeps working.
//
// Body: {current, password, encrypted_ecdh_private_key, encrypted_rsa_private_key, kdf_iterations}
// "current" and "password" are login secrets derived in the browser, never the user's passwords.
// Wrong current passwords count against the same per-account (or per-device) limits as sign-ins.
routerAdd(
  "POST",
  "/api/chat/password",
  (e) => {
    const { badRequest, conflict, fieldErrors, invalidRecord, tooManyRequests } = require(`${__hooks}/lib/errors.js`);
    const { patterns, readJsonObject, matching, requireUser } = require(`${__hooks}/lib/request.js`);
    const { setLoginAndKeys, wrappedKeysOf } = require(`${__hooks}/lib/account_keys.js`);
    const { accountKey, noteFailure, takeSignInAttempt } = require(`${__hooks}/lib/signin.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);

    const WRONG_CURRENT = "Current password is incorrect.";
    const SAME = "The new password must be different from the current one.";

    const auth = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const current = matching(body, "current", patterns.verifier, "Invalid current login secret.");
    const password = matching(body, "password", patterns.verifier, "Invalid new login secret.");
    const keys = wrappedKeysOf(body);
    if (current === password) {
      throw badRequest(SAME);
    }

    const { accountAddress } = require(`${__hooks}/lib/pending_email.js`);
    const account = accountKey(accountAddress(auth));
    // request headers, as PocketBase names them: lower case, "-" as "_"
    const device = e.requestInfo().headers["x_chatcrypt_device"] || "";
    const attempt = takeSignInAttempt(e.app, account, device);
    if (!attempt.ok) {
      noteFailure(e.app, account, e);
      throw tooManyRequests(attempt.message);
    }

    // The caller's session row (before the change ends it): its first sight carries over.
    const sessionHash = e.get("chatcrypt.sessionHash");
    let firstSeen = "";
    if (sessionHash) {
      try {
        firstSeen = e.app.findFirstRecordByData("sessions", "token_hash", sessionHash).getString("first_seen");
      } catch (_) {
        // no row: the session starts afresh
      }
    }

    // The check runs before the transaction (bcrypt is slow, and the transaction holds the write lock);
    // inside it, the password must still be the one checked.
    const checked = e.app.findRecordById("users", auth.id);
    if (!checked.validatePassword(current)) {
      noteFailure(e.app, account, e);
      throw badRequest(WRONG_CURRENT);
    }
    const checkedHash = checked.getString("password:hash");

    let user = null;
    e.app.runInTransaction((txApp) => {
      const record = txApp.findRecordById("users", auth.id);
      if (record.getString("password:hash") !== checkedHash) {
        throw conflict("The password was just changed elsewhere. Please try again.");
      }
      setLoginAndKeys(record, password, keys);
      try {
        txApp.save(record);
      } catch (err) {
        const busy = /database is locked|database table is locked|SQLITE_BUSY/i.test(String(err));
        if (Object.keys(fieldErrors(err)).length > 0 || busy) {
          throw invalidRecord(err, "The password could not be changed.");
        }
        throw err;
      }
      append(txApp, e, { actor: auth.id, action: "password.changed", target: auth.id });
      user = record;
    });
    if (!user) {
      throw badRequest("The password could not be changed.");
    }
    attempt.releaseAll();

    if (firstSeen) {
      e.set("chatcrypt.sessionFirstSeen", firstSeen);
    }
    return $apis.recordAuthResponse(e, user, "password-change", null);
  },
  $apis.bodyLimit(32 * 1024),
);
