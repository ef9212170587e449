// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Email notifications for POST /api/chat/notify-email, and the SMTP settings taken from the
// environment at start-up.
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
const MAX_MESSAGE_CHARS_IN_EMAIL = 2000;

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

const DEFAULT_FROM_ADDRESS = "noreply@chatcrypt.local";
const DEFAULT_FROM_NAME = "ChatCrypt";

const REASONS = {
  disabled: "email notifications are off",
  notConfigured: "email is not configured",
  rateLimited: "rate limited",
  mailFailed: "mail failed",
};

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

// {senderUsername, channelName, messageContent, mention, direct} from the request body, or a 400.
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
  return { senderUsername, channelName: direct ? "" : channelName, messageContent, mention, direct };
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

/** @param {string} value */
function escapeHtml(value) {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * @param {string} value
 * @param {number} maxChars
 */
function truncate(value, maxChars) {
  const chars = Array.from(value);
  return chars.length <= maxChars ? value : chars.slice(0, maxChars).join("") + "…";
}

// {subject, text, html} of a notification. The message text is included only when asked for.
/**
 * @param {ReturnType<typeof readNotifyRequest>} request
 * @param {boolean} includeContent
 */
function composeNotification(request, includeContent) {
  const channel = request.direct ? "a direct message" : `#${request.channelName}`;
  const subject = request.mention ? `New mention in ${channel}` : request.direct ? "New direct message" : `New message in ${channel}`;
  const sentence = request.mention
    ? `@${request.senderUsername} mentioned you in ${channel}.`
    : request.direct
      ? `@${request.senderUsername} sent you a direct message.`
      : `@${request.senderUsername} sent a new message in ${channel}.`;
  const footer = "Open ChatCrypt to read it. You can turn these emails off in Notification Settings.";

  const content = includeContent && request.messageContent !== "" ? truncate(request.messageContent, MAX_MESSAGE_CHARS_IN_EMAIL) : "";

  const textLines = [sentence, ""];
  const htmlParts = [`<p>${escapeHtml(sentence)}</p>`];
  if (content !== "") {
    textLines.push(content, "");
    htmlParts.push(`<blockquote style="white-space: pre-wrap">${escapeHtml(content)}</blockquote>`);
  }
  textLines.push(footer);
  htmlParts.push(`<p>${escapeHtml(footer)}</p>`);

  return { subject: subject, text: textLines.join("\n"), html: htmlParts.join("\n") };
}

// ---------------------------------------------------------------------------------------------
// SMTP settings from the environment

/** @param {string} name */
function env(name) {
  return String($os.getenv(name) || "").trim();
}

// When SMTP_HOST is set, writes SMTP_HOST, SMTP_PORT, SMTP_USERNAME, SMTP_PASSWORD, SMTP_TLS,
// SMTP_AUTH_METHOD, MAIL_FROM and MAIL_FROM_NAME into the app settings and saves them (only when
// something changed), so that the dashboard shows what is in use. A bad value is logged and
// leaves the settings as they were; it never stops the server from starting.
/** @param {core.App} app */
function applySmtpEnvironment(app) {
  const host = env("SMTP_HOST");
  if (host === "") {
    return;
  }

  const tls = /^(1|true|yes|on)$/i.test(env("SMTP_TLS"));
  const portText = env("SMTP_PORT");
  const port = portText === "" ? (tls ? 465 : 587) : Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    app.logger().error("SMTP settings from the environment not applied: SMTP_PORT must be a port number", "SMTP_PORT", portText);
    return;
  }

  const wanted = {
    host: host,
    port: port,
    username: env("SMTP_USERNAME"),
    password: String($os.getenv("SMTP_PASSWORD") || ""),
    tls: tls,
    authMethod: (env("SMTP_AUTH_METHOD") || "PLAIN").toUpperCase(),
    senderAddress: env("MAIL_FROM") || DEFAULT_FROM_ADDRESS,
    senderName: env("MAIL_FROM_NAME") || DEFAULT_FROM_NAME,
  };

  try {
    const settings = app.settings().clone();
    const smtp = settings.smtp;
    const meta = settings.meta;
    const unchanged =
      smtp.enabled &&
      smtp.host === wanted.host &&
      smtp.port === wanted.port &&
      smtp.username === wanted.username &&
      smtp.password === wanted.password &&
      smtp.tls === wanted.tls &&
      smtp.authMethod === wanted.authMethod &&
      meta.senderAddress === wanted.senderAddress &&
      meta.senderName === wanted.senderName;
    if (unchanged) {
      return;
    }

    smtp.enabled = true;
    smtp.host = wanted.host;
    smtp.port = wanted.port;
    smtp.username = wanted.username;
    smtp.password = wanted.password;
    smtp.tls = wanted.tls;
    smtp.authMethod = wanted.authMethod;
    meta.senderAddress = wanted.senderAddress;
    meta.senderName = wanted.senderName;

    app.save(settings);
    app.logger().info("SMTP settings applied from the environment", "host", wanted.host, "port", wanted.port, "tls", wanted.tls);
  } catch (err) {
    app.logger().error("SMTP settings from the environment not applied", "error", String(err));
  }
}

// APP_URL, the address browsers use for the web app (e.g. https://chat.example.com), becomes
// PocketBase's application URL, which starts the link in verification emails (the users
// collection's template, pb_migrations/1795366085_users_email_verification.js). Saved only when it
// changed; a value that is not an http(s) address without query or fragment is logged and ignored.
/** @param {core.App} app */
function applyAppUrlEnvironment(app) {
  const value = env("APP_URL").replace(/\/+$/, "");
  if (value === "") {
    return;
  }
  if (!/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/i.test(value)) {
    app.logger().error("APP_URL not applied: it must be an http(s) address such as https://chat.example.com", "APP_URL", value);
    return;
  }
  try {
    const settings = app.settings().clone();
    if (settings.meta.appURL === value) {
      return;
    }
    settings.meta.appURL = value;
    app.save(settings);
    app.logger().info("Application URL applied from the environment", "appURL", value);
  } catch (err) {
    app.logger().error("APP_URL not applied", "error", String(err));
  }
}

module.exports = {
  MAX_CHANNEL_NAME_CHARS,
  MAX_SENDER_USERNAME_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_MESSAGE_CHARS_IN_EMAIL,
  RATE_LIMITS,
  RECIPIENT_LIMITS,
  DEFAULT_FROM_ADDRESS,
  DEFAULT_FROM_NAME,
  REASONS,
  NOT_VERIFIED,
  TOO_MANY_TO_ADDRESS,
  readNotifyRequest,
  takeRecipientLimit,
  takeNotificationLimits,
  composeNotification,
  applySmtpEnvironment,
  applyAppUrlEnvironment,
};
