// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Mail to account addresses besides notifications. An address is verified through PocketBase's own
// flow: the web app asks for POST /api/collections/users/request-verification for the signed-in
// user's address, and its /verify-email page confirms the emailed token
// (pb_migrations/1795366085_users_email_verification.js).

// Verification emails: only with SMTP configured, and counted against the address's limit of emails
// (lib/email_notification.js RECIPIENT_LIMITS), like notifications.
// Errors: 400 "Email is not configured on this server.",
//         429 "Too many emails to this address in the last hour. Please try again later."
onRecordRequestVerificationRequest((e) => {
  const { badRequest, tooManyRequests } = require(`${__hooks}/lib/errors.js`);
  const { TOO_MANY_TO_ADDRESS, takeRecipientLimit } = require(`${__hooks}/lib/email_notification.js`);

  if (e.record.verified()) {
    return e.next(); // PocketBase sends nothing
  }
  if (!e.app.settings().smtp.enabled) {
    throw badRequest("Email is not configured on this server.");
  }
  if (!takeRecipientLimit(e.app, e.record.email())) {
    throw tooManyRequests(TOO_MANY_TO_ADDRESS);
  }
  return e.next();
}, "users");

// PocketBase's "Login from a new location" alert goes only to verified addresses. Anyone can sign
// up with someone else's address; each sign-in from a new client address would otherwise mail it.
// At most 10 alerts an hour go to an address (issue 47), counted apart from its other emails so that
// sign-ins never use up a reset or a notification: past that, the sign-in goes on and no alert is sent.
onMailerRecordAuthAlertSend((e) => {
  const { take } = require(`${__hooks}/lib/limits.js`);
  if (!e.record.verified()) {
    return; // not sent
  }
  if (!take(e.app, `mail.alert ${e.record.email().toLowerCase()}`, [{ windowMs: 60 * 60 * 1000, max: 10 }])) {
    e.app.logger().warn("A sign-in alert was not sent: the address had 10 in the last hour.");
    return; // not sent
  }
  return e.next();
}, "users");
