// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Password sign-in of "users": per-account guessing limits (lib/signin.js) around PocketBase's own
// check, and, on success, the number of failed attempts since the last sign-in in the answer's
// meta ({failedSignIns}), for the page to tell the owner.
onRecordAuthWithPasswordRequest((e) => {
  const { tooManyRequests } = require(`${__hooks}/lib/errors.js`);
  const { accountKey, noteFailure, noteWrongFromAddress, takeSignInAttempt } = require(`${__hooks}/lib/signin.js`);

  const account = accountKey(e.identity);
  // request headers, as PocketBase names them: lower case, "-" as "_"
  const device = e.requestInfo().headers["x_chatcrypt_device"] || "";
  const attempt = takeSignInAttempt(e.app, account, device, e.realIP());
  if (!attempt.ok) {
    noteFailure(e.app, account, e);
    throw tooManyRequests(attempt.message);
  }
  // an account whose address is still pending signs in with it too (lib/pending_email.js)
  require(`${__hooks}/lib/pending_email.js`).resolveSignInAccount(e);
  try {
    e.next();
  } catch (err) {
    // (a right password refused afterwards, the account deactivated, is no guess)
    const right = e.record && e.record.validatePassword(e.password);
    if (!right) {
      noteFailure(e.app, account, e);
      noteWrongFromAddress(e.app, e.realIP());
    }
    throw err;
  }
  attempt.releaseAll();
}, "users");

onRecordAuthRequest((e) => {
  if (e.authMethod !== "password") {
    e.next();
    return;
  }
  const { accountKey, takeFailures } = require(`${__hooks}/lib/signin.js`);
  const { accountAddress } = require(`${__hooks}/lib/pending_email.js`);
  const failures = takeFailures(e.app, accountKey(accountAddress(e.record)));
  if (failures > 0) {
    e.meta = { failedSignIns: failures };
  }
  e.next();
}, "users");
