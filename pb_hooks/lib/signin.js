// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Limits on password guessing per account, whatever the addresses the guesses come from, and per
// address, whatever the accounts: 10 wrong passwords a minute from one address (an office behind one
// router signs in together on a Monday morning: right passwords give their attempt back, so only
// guesses count; PocketBase's own rate limiter, "*:auth", stays above as a backstop for every
// attempt). The account is named by the email as typed, lower-cased, whether or not an account has
// it: an unknown email meets the same counters, answer and timing as a real one.
//
// A device that signed in to the account before (the web server vouches for it with a signed,
// HttpOnly cookie and passes its random id as X-ChatCrypt-Device) has its own counter instead, so
// someone guessing from elsewhere cannot lock the owner out of their own devices. Counters live in
// the app store (lib/limits.js: per process, empty after a restart).

const { take, takeAll, waitMs } = require(`${__hooks}/lib/limits.js`);

const MINUTE = 60 * 1000;
const ACCOUNT_LIMITS = [
  { windowMs: 15 * MINUTE, max: 10 },
  { windowMs: 24 * 60 * MINUTE, max: 50 },
];
const DEVICE_LIMITS = [{ windowMs: 15 * MINUTE, max: 10 }];
const ADDRESS_LIMITS = [{ windowMs: MINUTE, max: 10 }];
const FAILURES_PREFIX = "chat.signin-failures ";
const DEVICE_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** @param {unknown} identity */
function accountKey(identity) {
  return String(identity || "")
    .trim()
    .toLowerCase();
}

/**
 * @param {string} account
 * @param {string} device the X-ChatCrypt-Device header ("" without one)
 */
function counterOf(account, device) {
  return DEVICE_ID.test(device)
    ? { key: `signin-device ${device} ${account}`, limits: DEVICE_LIMITS }
    : { key: `signin-account ${account}`, limits: ACCOUNT_LIMITS };
}

/** @param {number} ms */
function tooManyMessage(ms) {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE));
  return `Too many attempts for this account; try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}

/** @param {number} ms */
function tooManyFromAddress(ms) {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE));
  return `Too many wrong passwords from this network; try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}

// Counts one attempt for the account; {ok: false, message} when its limit is reached, or when the
// address it comes from (`address`, a sign-in's) has had its 10 wrong passwords this minute. A right
// password gives the account's attempt back (releaseAll); a wrong one counts for the address
// (noteFailure). Right passwords arriving together are never refused for their number.
/**
 * @param {core.App} app
 * @param {string} account
 * @param {string} device
 * @param {string} [address] the request's address (PocketBase's realIP) of a sign-in; none for a signed-in password check
 */
function takeSignInAttempt(app, account, device, address = "") {
  const fromAddress = waitMs(app, addressKey(address), ADDRESS_LIMITS);
  if (address && fromAddress > 0) return { ok: false, releaseAll: () => {}, message: tooManyFromAddress(fromAddress) };
  const counter = counterOf(account, device);
  const attempt = takeAll(app, [counter]);
  return {
    ok: attempt.ok,
    releaseAll: attempt.releaseAll,
    message: attempt.ok ? "" : tooManyMessage(waitMs(app, counter.key, counter.limits)),
  };
}

/** @param {string} address */
const addressKey = (address) => `signin-address ${address}`;

// A wrong password at sign-in counts for the address it came from (not one of the addresses the
// settings exempt from rate limits, as PocketBase's own limiter skips them).
/**
 * @param {core.App} app
 * @param {string} address
 */
function noteWrongFromAddress(app, address) {
  if (app.settings().rateLimits.excludedIPs.indexOf(address) >= 0) return;
  take(app, addressKey(address), ADDRESS_LIMITS);
}

// Failed attempts since the owner's last sign-in, refused ones included, shown to them when they
// next sign in.
// A burst of them also goes into the audit log (lib/audit_signin.js).
/**
 * @param {core.App} app
 * @param {string} account
 * @param {core.RequestEvent} [e] the request, for the audit log's address and device
 */
function noteFailure(app, account, e) {
  app.store().setFunc(FAILURES_PREFIX + account, (/** @type {unknown} */ old) => (typeof old === "number" ? old : 0) + 1);
  require(`${__hooks}/lib/audit_signin.js`).noteFailedAttempt(app, e, account);
}

/**
 * @param {core.App} app
 * @param {string} account
 * @returns {number}
 */
function takeFailures(app, account) {
  const count = app.store().get(FAILURES_PREFIX + account);
  app.store().remove(FAILURES_PREFIX + account);
  return typeof count === "number" ? count : 0;
}

module.exports = { accountKey, takeSignInAttempt, noteFailure, noteWrongFromAddress, takeFailures };
