// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The admin console's API (pb_hooks/lib/admin_console.js, docs/decisions/0055-admin-console.md).
// Every route: 401 signed out, 403 "Only an administrator can do this." for members and guests.
//
// GET  /api/chat/admin/people?q=       people whose username or email contains q, and how many owners
// POST /api/chat/admin/people/role     {user_id, role, from?}   403 beyond the caller's reach, 409 the last
//                                       owner, or the role no longer `from` (changed meanwhile)
// POST /api/chat/admin/people/sign-out {user_id}          every session of that account ends -> {sessions}
// GET  /api/chat/admin/channels         channels with member counts and storage
// POST /api/chat/admin/settings         {who_can_create_channels: "everyone" | "admins"}
// GET  /api/chat/admin/mail             {configured, host}: never the password
// POST /api/chat/admin/mail/test        a test email to the caller's own address -> {sent, address, error?}
// Each change appends its audit entry in the same transaction.

routerAdd("GET", "/api/chat/admin/people", (e) => {
  const { badRequest } = require(`${__hooks}/lib/errors.js`);
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
  const { listPeople, ownerCount } = require(`${__hooks}/lib/admin_console.js`);
  const caller = requireUser(e, "Not authenticated");
  requireAdmin(e.app, caller.id);
  const q = String(e.request.url.query().get("q") || "").trim();
  if (q.length > 100) throw badRequest("The search is at most 100 characters.");
  // (owners: of the whole workspace, whatever the search, so that the last one's role is not offered)
  return e.json(200, { ...listPeople(e.app, q), owners: ownerCount(e.app) });
});

routerAdd(
  "POST",
  "/api/chat/admin/people/role",
  (e) => {
    const { patterns, requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
    const { changeRole } = require(`${__hooks}/lib/admin_console.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const caller = requireUser(e, "Not authenticated");
    const callerRole = requireAdmin(e.app, caller.id);
    const body = readJsonObject(e);
    const target = matching(body, "user_id", patterns.userId, "user_id must be a user id.");
    let before = "";
    e.app.runInTransaction((txApp) => {
      before = changeRole(txApp, callerRole, target, body.role, body.from);
      if (before !== body.role)
        append(txApp, e, { actor: caller.id, action: "role.changed", target: target, details: { from: before, to: body.role } });
    });
    return e.json(200, { role: body.role, previous: before });
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/admin/people/sign-out",
  (e) => {
    const { patterns, requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
    const { OWNER_SIGNS_OUT, requireManageable, signOutEverywhere } = require(`${__hooks}/lib/admin_console.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const caller = requireUser(e, "Not authenticated");
    const callerRole = requireAdmin(e.app, caller.id);
    const target = matching(readJsonObject(e), "user_id", patterns.userId, "user_id must be a user id.");
    let sessions = 0;
    e.app.runInTransaction((txApp) => {
      requireManageable(txApp, callerRole, target, OWNER_SIGNS_OUT);
      sessions = signOutEverywhere(txApp, target);
      append(txApp, e, { actor: caller.id, action: "sessions.revoked", target: target, details: { sessions: sessions, by_admin: true } });
    });
    return e.json(200, { sessions: sessions });
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd("GET", "/api/chat/admin/channels", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
  const { listChannels } = require(`${__hooks}/lib/admin_console.js`);
  const caller = requireUser(e, "Not authenticated");
  requireAdmin(e.app, caller.id);
  return e.json(200, { channels: listChannels(e.app) });
});

routerAdd(
  "POST",
  "/api/chat/admin/settings",
  (e) => {
    const { badRequest } = require(`${__hooks}/lib/errors.js`);
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
    const { WHO_CAN_CREATE, writeWhoCanCreate } = require(`${__hooks}/lib/workspace.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const caller = requireUser(e, "Not authenticated");
    requireAdmin(e.app, caller.id);
    const value = readJsonObject(e).who_can_create_channels;
    if (typeof value !== "string" || WHO_CAN_CREATE.indexOf(value) < 0)
      throw badRequest('who_can_create_channels must be "everyone" or "admins".');
    e.app.runInTransaction((txApp) => {
      const before = writeWhoCanCreate(txApp, value);
      if (before !== value)
        append(txApp, e, {
          actor: caller.id,
          action: "settings.changed",
          details: { setting: "who_can_create_channels", from: before, to: value },
        });
    });
    return e.json(200, { who_can_create_channels: value });
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd("GET", "/api/chat/admin/mail", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
  const caller = requireUser(e, "Not authenticated");
  requireAdmin(e.app, caller.id);
  const smtp = e.app.settings().smtp;
  return e.json(200, { configured: smtp.enabled, host: smtp.enabled ? smtp.host : "", port: smtp.enabled ? smtp.port : 0 });
});

routerAdd(
  "POST",
  "/api/chat/admin/mail/test",
  (e) => {
    const { badRequest, tooManyRequests } = require(`${__hooks}/lib/errors.js`);
    const { requireUser } = require(`${__hooks}/lib/request.js`);
    const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
    const { take } = require(`${__hooks}/lib/limits.js`);
    const { mailSender } = require(`${__hooks}/lib/mail_settings.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const caller = requireUser(e, "Not authenticated");
    requireAdmin(e.app, caller.id);
    const settings = e.app.settings();
    if (!settings.smtp.enabled) throw badRequest("Email is not configured on this server.");
    if (!take(e.app, `mail test ${caller.id}`, [{ windowMs: 60 * 1000, max: 5 }]))
      throw tooManyRequests("Too many test emails. Please wait a minute.");
    // the caller's own address, also one whose sign-up link is still unopened (ADR 82)
    const address = caller.email() || caller.getString("pending_email");
    /** @type {{ sent: boolean, address: string, error?: string }} */
    let result = { sent: true, address: address };
    try {
      e.app.newMailClient().send(
        new MailerMessage({
          from: mailSender(e.app),
          to: [{ address: address }],
          subject: "ChatCrypt test email",
          text: "This is a test email from your ChatCrypt workspace's admin console. Email works.",
          html: "<p>This is a test email from your ChatCrypt workspace's admin console. Email works.</p>",
        }),
      );
    } catch (err) {
      result = {
        sent: false,
        address: address,
        error: String(err)
          .replace(/^(Go)?Error:\s*/, "")
          .slice(0, 300),
      };
    }
    e.app.runInTransaction((txApp) => {
      append(txApp, e, { actor: caller.id, action: "mail.test_sent", details: { sent: result.sent } });
    });
    return e.json(200, result);
  },
  $apis.bodyLimit(4 * 1024),
);
