// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Failed sign-in bursts in the audit log (docs/decisions/0054-audit-log.md): one entry when an account
// meets BURST failed attempts within WINDOW, then none for that account until WINDOW has passed, so
// someone guessing cannot flood the log (at most 6 entries an hour per existing account; an email with
// no account is never counted or recorded). Counters live in the app store (per process).

const { append } = require(`${__hooks}/lib/audit.js`);

const BURST = 5;
const WINDOW_MS = 10 * 60 * 1000;
const PREFIX = "chat.signin-burst ";

/**
 * @param {unknown} old
 * @returns {{ times: number[], burstAt: number }}
 */
function stateOf(old) {
  try {
    const state = JSON.parse(String(old || ""));
    if (Array.isArray(state.times) && typeof state.burstAt === "number") return state;
  } catch (_) {}
  return { times: [], burstAt: 0 };
}

/**
 * Counts one failed attempt for the account (email as typed, lower-cased); appends
 * `signin.failed_burst` when it completes a burst.
 * @param {core.App} app
 * @param {core.RequestEvent | undefined} e
 * @param {string} account
 */
function noteFailedAttempt(app, e, account) {
  const { accountByAddress } = require(`${__hooks}/lib/pending_email.js`);
  const user = accountByAddress(app, account);
  if (!user) return;
  let burst = false;
  app.store().setFunc(PREFIX + user.id, (/** @type {unknown} */ old) => {
    const now = Date.now();
    const state = stateOf(old);
    const times = state.times.filter((time) => now - time < WINDOW_MS).slice(-(BURST - 1));
    times.push(now);
    if (times.length >= BURST && now - state.burstAt >= WINDOW_MS) {
      burst = true;
      return JSON.stringify({ times: [], burstAt: now });
    }
    return JSON.stringify({ times, burstAt: state.burstAt });
  });
  if (!burst) return;
  try {
    append(app, e, {
      actor: "",
      action: "signin.failed_burst",
      target: user.id,
      details: { failures: BURST, minutes: WINDOW_MS / 60000 },
    });
  } catch (err) {
    app.logger().warn("audit: a failed sign-in burst could not be recorded", "error", String(err));
  }
}

module.exports = { BURST, WINDOW_MS, noteFailedAttempt };
