// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Reset codes (pb_hooks/lib/reset_codes.js, docs/decisions/0062-reset-codes.md).
//
// POST /api/chat/admin/people/reset-code {user_id}   an administrator's new code for that person
//        -> {code: "XXXX-XXXX-XXXX", expires}; 403 for members and guests and beyond the caller's
//        reach (an admin's code only from the owner), 404 no such person
// POST /api/chat/password-reset/code {email, code}   signed out: the code, spent, becomes a password
//        reset token for /reset-password (the same page as a reset email's link) -> {token};
//        400 for any wrong, used or expired code or unknown address; 429 past 20 tries in 10 minutes
//        from an address, or 5 in an hour for one address's account
// Both append their audit entry (reset_code.issued, reset_code.used).

routerAdd(
  "POST",
  "/api/chat/admin/people/reset-code",
  (e) => {
    const { patterns, requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
    const { OWNER_ISSUES_CODES, requireManageable } = require(`${__hooks}/lib/admin_console.js`);
    const { issue } = require(`${__hooks}/lib/reset_codes.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const caller = requireUser(e, "Not authenticated");
    const callerRole = requireAdmin(e.app, caller.id);
    const target = matching(readJsonObject(e), "user_id", patterns.userId, "user_id must be a user id.");
    /** @type {{ code: string, expires: string }} */
    let issued = { code: "", expires: "" };
    e.app.runInTransaction((txApp) => {
      requireManageable(txApp, callerRole, target, OWNER_ISSUES_CODES);
      issued = issue(txApp, target, caller.id);
      append(txApp, e, { actor: caller.id, action: "reset_code.issued", target: target });
    });
    return e.json(200, issued);
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/password-reset/code",
  (e) => {
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { tooManyRequests } = require(`${__hooks}/lib/errors.js`);
    const { take } = require(`${__hooks}/lib/limits.js`);
    const { redeem } = require(`${__hooks}/lib/reset_codes.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const TOO_MANY = "Too many attempts. Please wait a few minutes and try again.";
    if (!take(e.app, `reset code from ${e.realIP()}`, [{ windowMs: 10 * 60 * 1000, max: 20 }])) throw tooManyRequests(TOO_MANY);
    const body = readJsonObject(e);
    const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
    if (email && !take(e.app, `reset code for ${email}`, [{ windowMs: 60 * 60 * 1000, max: 5 }])) throw tooManyRequests(TOO_MANY);
    let token = "";
    e.app.runInTransaction((txApp) => {
      const user = redeem(txApp, body.email, body.code);
      token = user.newPasswordResetToken();
      append(txApp, e, { actor: user.id, action: "reset_code.used", target: user.id });
    });
    return e.json(200, { token: token });
  },
  $apis.bodyLimit(4 * 1024),
);
