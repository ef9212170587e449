// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Deactivation of an account by an administrator (pb_hooks/lib/deactivate.js, ADR 0056).
//
// POST /api/chat/admin/people/deactivate  {user_id}  -> {user_id, channels: [conversations it left]}
// POST /api/chat/admin/people/reactivate  {user_id}  -> {user_id}
//
// Errors: 400 malformed input or the caller's own account, 401 not signed in, 403 not an administrator
// (or the owner's account, or an admin's unless the caller is the owner), 404 no such person.

routerAdd(
  "POST",
  "/api/chat/admin/people/deactivate",
  (e) => {
    const { patterns, requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const { deactivate } = require(`${__hooks}/lib/deactivate.js`);
    const caller = requireUser(e, "Not authenticated");
    const userId = matching(readJsonObject(e), "user_id", patterns.userId, "user_id must be a user id.");
    /** @type {{ user_id: string, channels: string[] }} */
    let result = { user_id: userId, channels: [] };
    e.app.runInTransaction((txApp) => {
      result = deactivate(txApp, e, caller.id, userId);
    });
    return e.json(200, result);
  },
  $apis.bodyLimit(1024),
);

routerAdd(
  "POST",
  "/api/chat/admin/people/reactivate",
  (e) => {
    const { patterns, requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const { reactivate } = require(`${__hooks}/lib/deactivate.js`);
    const caller = requireUser(e, "Not authenticated");
    const userId = matching(readJsonObject(e), "user_id", patterns.userId, "user_id must be a user id.");
    /** @type {{ user_id: string }} */
    let result = { user_id: userId };
    e.app.runInTransaction((txApp) => {
      result = reactivate(txApp, e, caller.id, userId);
    });
    return e.json(200, result);
  },
  $apis.bodyLimit(1024),
);
