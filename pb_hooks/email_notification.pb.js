// @ts-check
/// <reference path="../types/hooks.d.ts" />

// At start-up: SMTP settings from the environment (SMTP_HOST, SMTP_PORT, SMTP_USERNAME,
// SMTP_PASSWORD, SMTP_TLS, SMTP_AUTH_METHOD, MAIL_FROM, MAIL_FROM_NAME), applied only when SMTP_HOST
// is set. Without it the settings stay as saved in the dashboard. Likewise APP_URL, the web app's
// public address, for the links in verification emails.
onBootstrap((e) => {
  e.next();

  const { applySmtpEnvironment, applyAppUrlEnvironment } = require(`${__hooks}/lib/mail_settings.js`);
  applySmtpEnvironment(e.app);
  applyAppUrlEnvironment(e.app);
});

// POST /api/chat/notify-email (signed-in users)
//
// Emails the caller about a message in one of their channels (the spec's send-email-notification).
// The mail goes only to the caller's own address, only when their account has
// email_notifications_enabled and a verified address, at most 10 a minute and 100 a day per user,
// and at most 10 an hour per address. It names the sender and the channel; the message text (at
// most 2,000 characters of it) only when the account has email_include_content. Mail failures are
// logged, never shown as errors.
//
// Body: {senderUsername, channelName, messageContent?, mention?: boolean, messageId?, to?: ignored}
//       senderUsername at most 32 characters, channelName at most 100, messageContent at most 20,000;
//       messageId the message's id: each of the user's open pages asks, one mail goes (to the first)
// Answer (200): {"sent": true} or {"sent": false, "reason": "email notifications are off" |
//               "email is not configured" | "rate limited" | "mail failed" | "already sent"}
// Errors: 401 "Not authenticated", 400 for a malformed body (the message names the field),
//         403 "Verify your email address before turning on email notifications.",
//         429 "Too many emails to this address in the last hour. Please try again later."
routerAdd(
  "POST",
  "/api/chat/notify-email",
  (e) => {
    const { forbidden, tooManyRequests } = require(`${__hooks}/lib/errors.js`);
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const {
      REASONS,
      NOT_VERIFIED,
      TOO_MANY_TO_ADDRESS,
      readNotifyRequest,
      firstAskFor,
      composeNotification,
      takeNotificationLimits,
    } = require(`${__hooks}/lib/email_notification.js`);
    const { mailSender } = require(`${__hooks}/lib/mail_settings.js`);

    const auth = requireUser(e, "Not authenticated");
    const request = readNotifyRequest(readJsonObject(e));

    // the stored record, not the token's copy: settings may have changed since sign-in
    let user;
    try {
      user = e.app.findRecordById("users", auth.id);
    } catch (_) {
      return e.json(200, { sent: false, reason: REASONS.disabled });
    }
    if (!user.getBool("email_notifications_enabled")) {
      return e.json(200, { sent: false, reason: REASONS.disabled });
    }
    // an address nobody confirmed may belong to someone else (a pending one is not the account's yet)
    if (user.email() === "" || !user.verified()) {
      throw forbidden(NOT_VERIFIED);
    }

    // Without SMTP PocketBase would fall back to the local sendmail program; notifications are sent
    // only through the configured SMTP server.
    const settings = e.app.settings();
    if (!settings.smtp.enabled) {
      return e.json(200, { sent: false, reason: REASONS.notConfigured });
    }

    // each of the user's open pages asks about the message: one mail, to the first
    if (request.messageId && !firstAskFor(e.app, user.id, request.messageId)) {
      return e.json(200, { sent: false, reason: REASONS.alreadySent });
    }

    const limited = takeNotificationLimits(e.app, user.id, user.email());
    if (limited === "recipient") {
      throw tooManyRequests(TOO_MANY_TO_ADDRESS);
    }
    if (limited === "user") {
      return e.json(200, { sent: false, reason: REASONS.rateLimited });
    }

    // the message the mail is about, in a conversation of the user's: the mail links to it
    const { findMembership } = require(`${__hooks}/lib/channels.js`);
    /** @type {core.Record | null} */
    let about = null;
    try {
      about = request.messageId ? e.app.findRecordById("messages", request.messageId) : null;
    } catch (_) {
      // a message not (or no longer) there: the mail links to nothing in particular
    }
    if (about && !findMembership(e.app, about.getString("channel"), user.id)) about = null;
    const mail = composeNotification(request, user.getBool("email_include_content"), settings.meta.appURL, about);
    const message = new MailerMessage({
      from: mailSender(e.app),
      to: [{ address: user.email() }],
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
    });

    try {
      e.app.newMailClient().send(message);
    } catch (err) {
      e.app.logger().error("Email notification failed", "user", user.id, "error", String(err));
      return e.json(200, { sent: false, reason: REASONS.mailFailed });
    }

    // (the mail its server sends while no page is open waits its while after this one: notify_mail.go)
    // (a message not, or no longer, there: nothing to hold back)
    if (about) $notifyMail.mailed(user.id, about.getString("channel"));
    return e.json(200, { sent: true });
  },
  $apis.bodyLimit(256 * 1024),
); // messageContent of 20,000 characters, even JSON-escaped, and a little more
