// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// The mail settings taken from the environment at start-up (pb_hooks/email_notification.pb.js): the
// SMTP server and sender, and the application URL that starts the links in emails. Every email the
// hooks send (notifications, verification, recovery, the console's test) goes through them.

const DEFAULT_FROM_ADDRESS = "noreply@chatcrypt.local";
const DEFAULT_FROM_NAME = "ChatCrypt";

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

/**
 * The sender of every email: the settings' address and name, or the defaults.
 * @param {core.App} app
 */
function mailSender(app) {
  const meta = app.settings().meta;
  return { address: meta.senderAddress || DEFAULT_FROM_ADDRESS, name: meta.senderName || DEFAULT_FROM_NAME };
}

module.exports = { DEFAULT_FROM_ADDRESS, DEFAULT_FROM_NAME, applySmtpEnvironment, applyAppUrlEnvironment, mailSender };
