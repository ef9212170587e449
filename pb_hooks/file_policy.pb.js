// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Files people can send (pb_hooks/lib/file_policy.js, docs/decisions/0071-files-a-team-sends.md).
//
// POST /api/chat/admin/files {types: "standard" | "office" | "any", max_mb: 1..59}  owner and admins;
//   each change appends `settings.changed` in the same transaction.
// Every signed-in person reads the policy from the workspace's settings row (the page's picker uses it).
// A new attachment larger than the limit is refused 413, whoever creates it.

routerAdd(
  "POST",
  "/api/chat/admin/files",
  (e) => {
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
    const { checkFilePolicy, writeFilePolicy } = require(`${__hooks}/lib/file_policy.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const caller = requireUser(e, "Not authenticated");
    requireAdmin(e.app, caller.id);
    const next = checkFilePolicy(readJsonObject(e));
    e.app.runInTransaction((txApp) => {
      const before = writeFilePolicy(txApp, next);
      /** @type {[string, unknown, unknown][]} */
      const changes = [
        ["file_types", before.types, next.types],
        ["file_max_mb", before.maxMb, next.maxMb],
      ];
      for (const [setting, from, to] of changes)
        if (from !== to)
          append(txApp, e, { actor: caller.id, action: "settings.changed", details: { setting: setting, from: from, to: to } });
    });
    return e.json(200, { types: next.types, max_mb: next.maxMb });
  },
  $apis.bodyLimit(4 * 1024),
);

onRecordCreateRequest((e) => {
  const { requireWithinLimit } = require(`${__hooks}/lib/file_policy.js`);
  requireWithinLimit(e.app, e.record);
  e.next();
}, "file_attachments");
