// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Signing in with the identity provider (docs/decisions/0063-single-sign-on.md). The web server asks
// for the provider's address (begin: the state, PKCE verifier and nonce stay here, in the app store,
// for ten minutes), the browser signs in at the provider and comes back with a code (finish: the code
// exchanged by pocketbase/sso.go, the ID token checked). A known provider account signs in to its
// ChatCrypt account; a new one gets a sign-up ticket, and the browser creates the account with its own
// keys (signUp: the keys wrapped in the browser with the person's passkey or encryption passphrase).

const { badRequest, forbidden, conflict, notFound } = require(`${__hooks}/lib/errors.js`);
const { readSso } = require(`${__hooks}/lib/sso_settings.js`);

const PENDING = "chat.sso-pending ";
const TICKET = "chat.sso-ticket ";
const LINK = "chat.sso-link ";
const LIFETIME_MS = 10 * 60 * 1000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const CALLBACK = /^https?:\/\/[^\s/?#@]+\/auth\/sso\/callback$/;
const EXPIRED = "This sign-in has expired or was already used. Start again.";
const GONE = "This account was deactivated by the identity provider.";
const DOMAIN_REFUSED = "Accounts with this email address cannot sign in here.";
const EMAIL_NEEDED = "The identity provider did not give a verified email address for this account.";
const UNREACHABLE = "The identity provider cannot be reached right now. Try again later.";

/** The settings, or a 404 while single sign-on is not set up. @param {core.App} app */
function settingsOrNotFound(app) {
  const s = readSso(app);
  if (!s.enabled) throw notFound("Single sign-on is not set up.");
  return s;
}

/**
 * Keeps `value` under a fresh random key for ten minutes; answers the key.
 * @param {core.App} app
 * @param {string} prefix
 * @param {string} key
 * @param {object} value
 */
function keep(app, prefix, key, value) {
  app.store().set(prefix + key, { ...value, until: Date.now() + LIFETIME_MS });
  return key;
}

/**
 * What `keep` kept, while it lasts; `once` removes it.
 * @param {core.App} app
 * @param {string} prefix
 * @param {unknown} key
 * @param {boolean} once
 */
function kept(app, prefix, key, once) {
  if (typeof key !== "string" || !TOKEN.test(key)) throw badRequest(EXPIRED);
  const value = app.store().get(prefix + key);
  if (once) app.store().remove(prefix + key);
  if (!value || typeof value !== "object" || !(value.until > Date.now())) throw badRequest(EXPIRED);
  return value;
}

/**
 * @param {core.App} app
 * @param {JsonObject} body {redirect_url}: the web server's /auth/sso/callback
 * @returns {{ url: string, state: string }}
 */
function begin(app, body) {
  const s = settingsOrNotFound(app);
  const redirectUrl = body.redirect_url;
  if (typeof redirectUrl !== "string" || redirectUrl.length > 300 || !CALLBACK.test(redirectUrl)) {
    throw badRequest("redirect_url must be this server's /auth/sso/callback address.");
  }
  let started;
  try {
    started = $sso.begin({ ...s, redirectUrl });
  } catch (err) {
    // the provider unreachable or its discovery document unusable: the provider's problem, not the caller's
    app.logger().warn("single sign-on: the provider's discovery failed", "error", String(err));
    throw new ApiError(502, UNREACHABLE);
  }
  keep(app, PENDING, started.state, { verifier: started.verifier, nonce: started.nonce, redirectUrl });
  return { url: started.url, state: started.state };
}

/**
 * The username a new account is offered: the configured claim made fit (letters, digits, dot, dash,
 * underscore; 3 to 32), else the email's local part.
 * @param {{ [k: string]: unknown }} claims
 * @param {string} claim
 * @param {string} email
 */
function suggestedUsername(claims, claim, email) {
  const raw = typeof claims[claim] === "string" ? String(claims[claim]) : email;
  const fitted = raw
    .split("@")[0]
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .slice(0, 32);
  return fitted.length >= 3 ? fitted : (fitted + "___").slice(0, 3);
}

/**
 * Exchanges the code. A linked account: {user} (its record, to answer with a session). A new one:
 * {signup: {ticket, email, username}}.
 * @param {core.App} app
 * @param {JsonObject} body {state, code}
 */
function finish(app, body) {
  const s = settingsOrNotFound(app);
  const pending = kept(app, PENDING, body.state, true);
  const code = body.code;
  if (typeof code !== "string" || code.length < 1 || code.length > 4000) throw badRequest("code must be the provider's code.");
  let result;
  try {
    result = $sso.finish({ ...s, redirectUrl: pending.redirectUrl }, code, pending.verifier, pending.nonce);
  } catch (err) {
    app.logger().warn("single sign-on: the code exchange failed", "error", String(err));
    throw badRequest("The identity provider did not confirm this sign-in. Start again.");
  }
  const claims = /** @type {{ [k: string]: unknown }} */ (result.claims);
  const link = linkOf(app, result.issuer, result.subject);
  const claimed = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  if (link) {
    if (link.getString("gone") !== "") throw forbidden(GONE);
    // The allowed domains hold for everyone the provider signs in, not only for new accounts (the
    // address the provider gives now, else the account's); the owner, never deactivated by the
    // provider either (ADR 0064), is not locked out by a setting of their own.
    const user = app.findRecordById("users", link.getString("user"));
    if (!domainAllowed(s, claimed || user.getString("email")) && roleOf(app, user.id) !== "owner") throw forbidden(DOMAIN_REFUSED);
    if (result.refreshToken) {
      link.set("refresh_token", result.refreshToken);
      link.set("client_id", s.clientId);
    }
    link.set("checked", new Date().toISOString());
    app.save(link);
    return { user };
  }
  const email = claimed;
  if (email === "" || claims.email_verified === false || claims.email_verified === "false") throw forbidden(EMAIL_NEEDED);
  if (!domainAllowed(s, email)) throw forbidden(DOMAIN_REFUSED);
  const provided = { issuer: result.issuer, subject: result.subject, email, refreshToken: result.refreshToken || "", clientId: s.clientId };
  const existing = userByEmail(app, email);
  // a password account with this email: its owner signs in with the password once to link it (sso_link.js)
  if (existing) return { link: { ticket: keep(app, LINK, newTicket(), { ...provided, user: existing.id, tries: 0 }), email } };
  const ticket = keep(app, TICKET, newTicket(), provided);
  return { signup: { ticket, email, username: suggestedUsername(claims, s.usernameClaim, email) } };
}

/** Whether the settings' allowed domains (none: any) take this address. @param {{ allowedDomains: string[] }} s @param {string} email */
const domainAllowed = (s, email) => s.allowedDomains.length === 0 || s.allowedDomains.includes(email.toLowerCase().split("@").pop() || "");

/** @param {core.App} app @param {string} userId */
function roleOf(app, userId) {
  try {
    return app.findRecordById("profiles", userId).getString("role");
  } catch (_) {
    return "";
  }
}

const newTicket = () => $security.randomStringWithAlphabet(43, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-");

/** @param {core.App} app @param {string} email */
function userByEmail(app, email) {
  try {
    return app.findAuthRecordByEmail("users", email);
  } catch (_) {
    // else the newest account waiting for this address's sign-up link (docs/decisions/0082-pending-email-at-sign-up.md)
    return app.findRecordsByFilter("users", "pending_email = {:email}", "-created", 1, 0, { email })[0] || null;
  }
}

/**
 * @param {core.App} app
 * @param {string} issuer
 * @param {string} subject
 */
function linkOf(app, issuer, subject) {
  try {
    return app.findFirstRecordByFilter("sso_links", "issuer = {:issuer} && subject = {:subject}", { issuer, subject });
  } catch (_) {
    return null;
  }
}

/**
 * Creates the account of a sign-up ticket with the keys the browser made; answers its record. The
 * ticket is used up only when the account exists (a taken username can be changed and sent again).
 * @param {core.App} app
 * @param {JsonObject} body {ticket, id, username, ecdh_public_key, rsa_public_key, encrypted_ecdh_private_key,
 *   encrypted_rsa_private_key, kdf_iterations}
 */
function signUp(app, body) {
  settingsOrNotFound(app);
  const { createAccount, signUpKeys } = require(`${__hooks}/lib/accounts.js`);
  const ticket = kept(app, TICKET, body.ticket, false);
  const keys = signUpKeys(body);
  /** @type {core.Record | null} */
  let user = null;
  app.runInTransaction((txApp) => {
    if (linkOf(txApp, ticket.issuer, ticket.subject)) throw conflict("This account was already created. Sign in again.");
    // nobody knows this password: the account signs in through the provider (or a passkey)
    const password = $security.randomString(64);
    user = createAccount(txApp, { ...keys, email: ticket.email, password, verified: true });
    saveLink(txApp, keys.id, ticket);
  });
  app.store().remove(TICKET + body.ticket);
  return /** @type {core.Record} */ (/** @type {unknown} */ (user));
}

/**
 * Links a ChatCrypt account to the provider's account of a ticket.
 * @param {core.App} txApp
 * @param {string} userId
 * @param {{ issuer: string, subject: string, refreshToken: string, clientId?: string }} ticket
 */
function saveLink(txApp, userId, ticket) {
  const link = new Record(txApp.findCollectionByNameOrId("sso_links"));
  link.set("user", userId);
  link.set("issuer", ticket.issuer);
  link.set("subject", ticket.subject);
  link.set("refresh_token", ticket.refreshToken);
  link.set("client_id", ticket.clientId || "");
  link.set("checked", new Date().toISOString());
  txApp.save(link);
}

module.exports = { begin, finish, signUp, GONE, LINK, keep, kept, linkOf, saveLink, settingsOrNotFound };
