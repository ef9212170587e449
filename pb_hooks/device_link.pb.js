// @ts-check
/// <reference path="../types/hooks.d.ts" />

// New devices approved from a signed-in one (docs/decisions/0059-device-approval.md; lib/device_link.js).
//
// POST /api/chat/device-links            {identity, device_key} signed out (a sign-in), or {device_key}
//                                        signed in (only the keys travel) -> {id, secret, expires}; an
//                                        unknown username or email gets the same answer
// GET  /api/chat/device-links            signed in: the account's pending requests
// POST /api/chat/device-links/{id}/claim    {approver_key}: this device answers (the code is of both keys)
// POST /api/chat/device-links/{id}/release  {approver_key}: it lets the request go unanswered (Esc), for
//                                           any of the account's devices to take again
// POST /api/chat/device-links/{id}/approve  {approver_key, sealed}
// POST /api/chat/device-links/{id}/deny
// POST /api/chat/device-links/poll       {id, secret}: {state: pending|denied|expired} or, once, approved:
//                                        the sealed keys and (a sign-in) the session, as a password sign-in
// POST /api/chat/device-links/cancel     {id, secret}: the new device gives up
// Another account's request, a spent one, a wrong secret: 404 alike.

routerAdd(
  "POST",
  "/api/chat/device-links",
  (e) => {
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { startLink } = require(`${__hooks}/lib/device_link.js`);
    const body = readJsonObject(e);
    const signedIn = e.auth && e.auth.collection().name === "users" ? e.auth.id : null;
    return e.json(200, startLink(e, body, signedIn));
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd("GET", "/api/chat/device-links", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { pendingFor } = require(`${__hooks}/lib/device_link.js`);
  const user = requireUser(e, "Not authenticated");
  return e.json(200, { requests: pendingFor(e.app, user.id) });
});

routerAdd(
  "POST",
  "/api/chat/device-links/{id}/{op}",
  (e) => {
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { notFound } = require(`${__hooks}/lib/errors.js`);
    const { ownPending, claim, release, approve } = require(`${__hooks}/lib/device_link.js`);
    const op = e.request.pathValue("op");
    if (op !== "claim" && op !== "release" && op !== "approve" && op !== "deny") throw notFound("Not found.");
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    /** @type {any} */
    let answer = {};
    e.app.runInTransaction((txApp) => {
      const record = ownPending(txApp, e.request.pathValue("id"), user.id);
      if (op === "claim") answer = claim(txApp, record, body);
      else if (op === "release") release(txApp, record, body);
      else if (op === "approve") approve(txApp, record, body);
      else {
        record.set("state", "denied");
        txApp.save(record);
      }
    });
    return e.json(200, op === "claim" ? answer : { ok: true });
  },
  $apis.bodyLimit(32 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/device-links/poll",
  (e) => {
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { notFound } = require(`${__hooks}/lib/errors.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const { withSecret, expired } = require(`${__hooks}/lib/device_link.js`);
    const record = withSecret(e.app, readJsonObject(e));
    const state = record.getString("state");
    const userId = record.getString("user");
    const purpose = record.getString("purpose");
    // only the page signed in to the account receives the keys of a request it started signed in
    if (purpose === "keys" && (!e.auth || e.auth.id !== userId)) throw notFound("This request was not found.");
    if (state === "pending" && !expired(record)) return e.json(200, { state: "pending", approver_key: record.getString("approver_key") });
    // every other answer is given once: the request is spent
    e.app.delete(record);
    if (state === "denied") return e.json(200, { state: "denied" });
    if (state !== "approved" || expired(record)) return e.json(200, { state: "expired" });
    const meta = { state: "approved", sealed: record.getString("sealed"), approver_key: record.getString("approver_key") };
    const details = { device: record.getString("agent"), purpose };
    if (purpose === "keys") {
      append(e.app, e, { actor: userId, action: "device.approved", target: userId, details });
      return e.json(200, meta);
    }
    const user = e.app.findRecordById("users", userId);
    // the same session a password sign-in starts (its row in sessions, the deactivation check)
    $apis.recordAuthResponse(e, user, "link", meta);
    try {
      append(e.app, e, { actor: userId, action: "device.approved", target: userId, details });
    } catch (err) {
      e.app.logger().warn("audit: a device approval could not be recorded", "error", String(err));
    }
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/device-links/cancel",
  (e) => {
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { withSecret } = require(`${__hooks}/lib/device_link.js`);
    e.app.delete(withSecret(e.app, readJsonObject(e)));
    return e.noContent(204);
  },
  $apis.bodyLimit(4 * 1024),
);

// Requests that were never answered nor polled again go after a while.
cronAdd("chatcryptDeviceLinksCleanup", "*/10 * * * *", () => {
  const cutoff = new Date(Date.now() - 10 * 60 * 1000).toISOString().replace("T", " ");
  $app.db().newQuery("DELETE FROM device_links WHERE expires < {:cutoff}").bind({ cutoff }).execute();
});
