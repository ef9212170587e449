// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Reading the audit log (docs/decisions/0054-audit-log.md):
//   GET /api/chat/admin/audit?page&perPage&upto&person&action&since&until  (owner, admins) newest first, counted
//       from entry `upto` (the newest, when absent; each answer says which, and how many are `newer`),
//       with the chain's verdict {ok, count, seq?}
//   GET /api/chat/admin/audit/export                       (owner, admins) every entry as JSON Lines
//   GET /api/chat/account/activity                         (signed in) the caller's latest 50 entries
// The export is itself an entry ("audit.exported").

routerAdd("GET", "/api/chat/admin/audit", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
  const { auditPage } = require(`${__hooks}/lib/audit_read.js`);
  const user = requireUser(e, "Sign in to see the audit log.");
  requireAdmin(e.app, user.id);
  const query = e.requestInfo().query;
  return e.json(200, auditPage(e.app, query));
});

routerAdd("GET", "/api/chat/admin/audit/export", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
  const { exportLines } = require(`${__hooks}/lib/audit_read.js`);
  const { append } = require(`${__hooks}/lib/audit.js`);
  const user = requireUser(e, "Sign in to export the audit log.");
  requireAdmin(e.app, user.id);
  const lines = exportLines(e.app);
  append(e.app, e, { actor: user.id, action: "audit.exported" });
  const day = new Date().toISOString().slice(0, 10);
  e.response.header().set("Content-Disposition", `attachment; filename="audit-${day}.jsonl"`);
  return e.blob(200, "application/x-ndjson", lines);
});

routerAdd("GET", "/api/chat/account/activity", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { activityOf } = require(`${__hooks}/lib/audit_read.js`);
  const user = requireUser(e, "Not authenticated");
  return e.json(200, { items: activityOf(e.app, user.id) });
});
