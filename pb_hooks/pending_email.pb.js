// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The address typed at sign-up waits for its link (lib/pending_email.js,
// docs/decisions/0082-pending-email-at-sign-up.md).
//
// POST /api/chat/email-link (signed in): mails the caller's pending address its link again, or, when
// another account has the address, the mail that says what happened; {sent: true} either way.
// Errors: 400 "This account has no email address waiting for confirmation.",
//         400 "Email is not configured on this server.",
//         429 "Too many emails to this address in the last hour. Please try again later."
routerAdd(
  "POST",
  "/api/chat/email-link",
  (e) => {
    const { badRequest, tooManyRequests } = require(`${__hooks}/lib/errors.js`);
    const { requireUser } = require(`${__hooks}/lib/request.js`);
    const { TOO_MANY_TO_ADDRESS } = require(`${__hooks}/lib/email_notification.js`);
    const { mailPendingAddress } = require(`${__hooks}/lib/pending_email.js`);
    const user = requireUser(e, "Not authenticated");
    if (!user.getString("pending_email")) throw badRequest("This account has no email address waiting for confirmation.");
    if (!e.app.settings().smtp.enabled) throw badRequest("Email is not configured on this server.");
    if (!mailPendingAddress(e.app, user)) throw tooManyRequests(TOO_MANY_TO_ADDRESS);
    return e.json(200, { sent: true });
  },
  $apis.bodyLimit(1024),
);

// POST /api/chat/email-link/confirm {token} (public): the link attaches the pending address it names.
// Answers {email, verified: true}, also to a link opened again once its address is attached. Errors: 400
// for a bad or expired link, or one whose address the account no longer has; 409 when another account
// has the address by now.
routerAdd(
  "POST",
  "/api/chat/email-link/confirm",
  (e) => {
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { attachPendingAddress } = require(`${__hooks}/lib/pending_email.js`);
    const body = readJsonObject(e);
    const email = attachPendingAddress(e.app, body.token);
    return e.json(200, { email, verified: true });
  },
  $apis.bodyLimit(8 * 1024),
);

// Only the sign-up and the link set the pending address: an owner's own update cannot name one
// (it would have the link, or the "Someone tried" mail, sent to any address). Nor can it set the
// wrapped keys or their iterations: they change only re-wrapped together (a password change, a
// recovery, account data), and anything else written there locked the account out of its keys.
onRecordUpdateRequest((e) => {
  const body = e.requestInfo().body || {};
  if (!e.hasSuperuserAuth()) {
    const { badRequest } = require(`${__hooks}/lib/errors.js`);
    if (body.pending_email !== undefined) throw badRequest("The email address changes only through Change email.");
    for (const field of ["encrypted_ecdh_private_key", "encrypted_rsa_private_key", "kdf_iterations"]) {
      if (
        body[field] !== undefined ||
        body[`${field}+`] !== undefined ||
        body[`${field}-`] !== undefined ||
        body[`+${field}`] !== undefined
      )
        throw badRequest("The account's keys change only through a password change or a recovery.");
    }
  }
  e.next();
}, "users");
