// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Email notifications for POST /api/chat/notify-email, and the SMTP settings taken from the
// environment at start-up.
//
// A notification goes only to the signed-in caller's own address (never to an address named in the
// request: that would make the server an open relay), at most RATE_LIMITS per user, and says only
// who wrote in which channel unless the user chose to receive the message text too.

const { badRequest } = require(`${__hooks}/lib/errors.js`);
const { characterCount } = require(`${__hooks}/lib/request.js`);

const MAX_CHANNEL_NAME_CHARS = 100;
const MAX_SENDER_USERNAME_CHARS = 32;
const MAX_MESSAGE_CHARS = 20000;
const MAX_MESSAGE_CHARS_IN_EMAIL = 2000;

// at most `max` notifications per user within `windowMs`, for every window
const RATE_LIMITS = [
  { windowMs: 60 * 1000, max: 10 },
  { windowMs: 24 * 60 * 60 * 1000, max: 100 },
];
const LONGEST_WINDOW_MS = RATE_LIMITS.reduce((longest, limit) => Math.max(longest, limit.windowMs), 0);

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

// {senderUsername, channelName, messageContent, mention} from the request body, or a 400.
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

  return { senderUsername, channelName, messageContent, mention };
}

// ---------------------------------------------------------------------------------------------
// Rate limit, kept in the app store (per process; it starts empty after a restart)

// Counts one notification for the user and answers true, or answers false (and counts nothing)
// when any window is full. Atomic: the store holds its lock while the callback runs.
/**
 * @param {core.App} app
 * @param {string} userId
 */
function takeRateLimit(app, userId) {
  let allowed = false;
  app.store().setFunc(`chat.notifyEmail.sent ${userId}`, (old) => {
    const now = Date.now();
    /** @type {number[]} */
    let times = [];
    if (typeof old === "string" && old !== "") {
      try {
        times = JSON.parse(old).filter((/** @type {unknown} */ time) => typeof time === "number" && now - time < LONGEST_WINDOW_MS);
      } catch (_) {
        times = [];
      }
    }
    allowed = RATE_LIMITS.every(
      (limit) => times.filter((time) => now - time < limit.windowMs).length < limit.max,
    );
    if (allowed) {
      times.push(now);
    }
    return JSON.stringify(times);
  });
  return allowed;
}

// ---------------------------------------------------------------------------------------------
// The message

/** @param {string} value */
function escapeHtml(value) {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
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
  const channel = `#${request.channelName}`;
  const subject = request.mention ? `New mention in ${channel}` : `New message in ${channel}`;
  const sentence = request.mention
    ? `@${request.senderUsername} mentioned you in ${channel}.`
    : `@${request.senderUsername} sent a new message in ${channel}.`;
  const footer = "Open ChatCrypt to read it. You can turn these emails off in Notification Settings.";

  const content = includeContent && request.messageContent !== ""
    ? truncate(request.messageContent, MAX_MESSAGE_CHARS_IN_EMAIL)
    : "";

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
    app.logger().error(
      "SMTP settings from the environment not applied: SMTP_PORT must be a port number",
      "SMTP_PORT", portText,
    );
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
    const unchanged = smtp.enabled &&
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
    app.logger().info(
      "SMTP settings applied from the environment",
      "host", wanted.host, "port", wanted.port, "tls", wanted.tls,
    );
  } catch (err) {
    app.logger().error("SMTP settings from the environment not applied", "error", String(err));
  }
}

module.exports = {
  MAX_CHANNEL_NAME_CHARS,
  MAX_SENDER_USERNAME_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_MESSAGE_CHARS_IN_EMAIL,
  RATE_LIMITS,
  DEFAULT_FROM_ADDRESS,
  DEFAULT_FROM_NAME,
  REASONS,
  readNotifyRequest,
  takeRateLimit,
  composeNotification,
  applySmtpEnvironment,
};
