// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Email notifications for POST /api/chat/notify-email (the SMTP settings they go through:
// lib/mail_settings.js).
//
// A notification goes only to the signed-in caller's own address (never to an address named in the
// request: that would make the server an open relay), only once that address is verified, at most
// RATE_LIMITS per user and RECIPIENT_LIMITS per address (with the verification emails, whichever
// account asked for them). It names the sender and the channel, and carries the message text only
// when the user chose to receive it.

const { badRequest } = require(`${__hooks}/lib/errors.js`);
const { characterCount } = require(`${__hooks}/lib/request.js`);
const { take, takeAll } = require(`${__hooks}/lib/limits.js`);

const MAX_CHANNEL_NAME_CHARS = 100;
const MAX_SENDER_USERNAME_CHARS = 32;
const MAX_MESSAGE_CHARS = 20000;

// at most `max` notifications per user within `windowMs`, for every window
const RATE_LIMITS = [
  { windowMs: 60 * 1000, max: 10 },
  { windowMs: 24 * 60 * 60 * 1000, max: 100 },
];
// at most `max` emails (notifications and verification emails) per recipient address, from all
// accounts together
const RECIPIENT_LIMITS = [{ windowMs: 60 * 60 * 1000, max: 10 }];

const NOT_VERIFIED = "Verify your email address before turning on email notifications.";
const TOO_MANY_TO_ADDRESS = "Too many emails to this address in the last hour. Please try again later.";

const REASONS = {
  disabled: "email notifications are off",
  notConfigured: "email is not configured",
  rateLimited: "rate limited",
  mailFailed: "mail failed",
  alreadySent: "already sent",
};

// the messages a user was last emailed about (per user, in memory): one mail per message, whichever
// of their open pages asks first
const NOTIFIED_KEPT = 200;
const MESSAGE_ID = /^[a-z0-9]{15}$/;

// ---------------------------------------------------------------------------------------------
// Request

// Printable text only: control characters (line breaks included) would let a caller shape the
// mail's headers or lines.
/** @param {string} value */
function singleLine(value) {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
}

/**
 * @param {JsonObject} body
 * @param {string} name
 * @param {number} maxChars
 */
function requiredText(body, name, maxChars) {
  const value = body[name];
  if (typeof value !== "string" || singleLine(value) === "") {
    throw badRequest(`${name} must be a non-empty string.`);
  }
  if (characterCount(value) > maxChars) {
    throw badRequest(`${name} may have at most ${maxChars} characters.`);
  }
  return singleLine(value);
}

// {senderUsername, channelName, messageContent, mention, direct, messageId} from the request body, or a 400.
// "to" is accepted for compatibility with the spec's call and ignored.
/** @param {JsonObject} body */
function readNotifyRequest(body) {
  const senderUsername = requiredText(body, "senderUsername", MAX_SENDER_USERNAME_CHARS);
  const channelName = requiredText(body, "channelName", MAX_CHANNEL_NAME_CHARS);

  let messageContent = "";
  if (body.messageContent !== undefined && body.messageContent !== null) {
    if (typeof body.messageContent !== "string") {
      throw badRequest("messageContent must be a string.");
    }
    if (characterCount(body.messageContent) > MAX_MESSAGE_CHARS) {
      throw badRequest(`messageContent may have at most ${MAX_MESSAGE_CHARS} characters.`);
    }
    messageContent = body.messageContent;
  }

  let mention = false;
  if (body.mention !== undefined && body.mention !== null) {
    if (typeof body.mention !== "boolean") {
      throw badRequest("mention must be true or false.");
    }
    mention = body.mention;
  }

  // A direct conversation is named in no email: a group's name is sealed inside it (ADR 50).
  if (body.direct !== undefined && body.direct !== null && typeof body.direct !== "boolean")
    throw badRequest("direct must be true or false.");
  const direct = body.direct === true;
  // (the message it is about: each of the user's open pages asks, one mail goes)
  if (body.messageId !== undefined && (typeof body.messageId !== "string" || !MESSAGE_ID.test(body.messageId)))
    throw badRequest("messageId must be a message id.");
  const messageId = typeof body.messageId === "string" ? body.messageId : "";
  return { senderUsername, channelName: direct ? "" : channelName, messageContent, mention, direct, messageId };
}

/**
 * Whether this is the first ask to email the user about the message (then it counts it): atomic, the
 * store holding its lock while the callback runs.
 * @param {core.App} app
 * @param {string} userId
 * @param {string} messageId
 * @returns {boolean}
 */
function firstAskFor(app, userId, messageId) {
  let first = false;
  app.store().setFunc(`mail.notified ${userId}`, (/** @type {unknown} */ old) => {
    /** @type {unknown} */
    let ids = [];
    try {
      ids = typeof old === "string" ? JSON.parse(old) : [];
    } catch (_) {
      ids = [];
    }
    const known = Array.isArray(ids) ? ids.filter((id) => typeof id === "string") : [];
    if (known.includes(messageId)) return JSON.stringify(known);
    first = true;
    return JSON.stringify([...known.slice(-(NOTIFIED_KEPT - 1)), messageId]);
  });
  return first;
}

// ---------------------------------------------------------------------------------------------
// Rate limits (lib/limits.js: per process, empty after a restart)

/** @param {string} address */
function recipientKey(address) {
  return `mail.to ${address.trim().toLowerCase()}`;
}

// Counts one email to the address; false (and nothing counted) when its limit is reached.
/**
 * @param {core.App} app
 * @param {string} address
 */
function takeRecipientLimit(app, address) {
  return take(app, recipientKey(address), RECIPIENT_LIMITS) !== 0;
}

// Counts one notification for the user and for the address, or neither. Answers "" when both
// allow it, else "user" or "recipient": the first limit that is reached.
/**
 * @param {core.App} app
 * @param {string} userId
 * @param {string} address
 */
function takeNotificationLimits(app, userId, address) {
  const taken = takeAll(app, [
    { key: `mail.notify ${userId}`, limits: RATE_LIMITS },
    { key: recipientKey(address), limits: RECIPIENT_LIMITS },
  ]);
  return taken.ok ? "" : ["user", "recipient"][taken.failedAt];
}

// ---------------------------------------------------------------------------------------------
// The message

// {subject, text, html} of a notification (pocketbase/notify_mail.go, which also mails those with no
// page open). The message text is included only when asked for.
/**
 * @param {ReturnType<typeof readNotifyRequest>} request
 * @param {boolean} includeContent
 * @param {string} appURL the app's address (the mail links to the message there)
 * @param {core.Record | null} message the message the mail is about, when it is there
 */
function composeNotification(request, includeContent, appURL, message) {
  const content = includeContent ? request.messageContent : "";
  return $notifyMail.compose(
    request.senderUsername,
    request.channelName,
    request.direct,
    request.mention,
    content,
    appURL,
    message ? message.getString("channel") : "",
    message ? message.id : "",
    message ? message.getString("thread") : "",
  );
}

module.exports = {
  MAX_CHANNEL_NAME_CHARS,
  MAX_SENDER_USERNAME_CHARS,
  MAX_MESSAGE_CHARS,
  RATE_LIMITS,
  RECIPIENT_LIMITS,
  REASONS,
  NOT_VERIFIED,
  TOO_MANY_TO_ADDRESS,
  readNotifyRequest,
  firstAskFor,
  takeRecipientLimit,
  takeNotificationLimits,
  composeNotification,
};
