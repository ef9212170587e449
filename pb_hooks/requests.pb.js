// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Requests to join a direct conversation, and blocks (pb_hooks/lib/consent.js,
// docs/decisions/0052-direct-messages-with-consent.md). The caller's requests are listed through the
// `direct_requests` collection (its own only), their blocks through `blocks`.
//
// POST /api/chat/direct/requests/answer {channel_id, answer: "accept" | "decline" | "block"}
//   accept:  the caller becomes a member (added by the requester); each takes the other's DMs at once.
//   decline: the request is gone; the requester is told nothing.
//   block:   decline, and the requester's DMs, adds and look-ups of the caller find nobody from now on.
// POST /api/chat/users/unblock {user_id}   ends the caller's block of that person.
//
// Errors: 400 malformed input, 401 not signed in, 404 no such request of the caller's (or no such block).

routerAdd(
  "POST",
  "/api/chat/direct/requests/answer",
  (e) => {
    const { badRequest, notFound } = require(`${__hooks}/lib/errors.js`);
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { checkChannelId } = require(`${__hooks}/lib/channels.js`);
    const { consent, withdraw, findRequest, saveNew, hasBlocked } = require(`${__hooks}/lib/consent.js`);
    const { addMember, profileKey } = require(`${__hooks}/lib/direct.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const channelId = checkChannelId(body.channel_id);
    const answer = body.answer;
    if (answer !== "accept" && answer !== "decline" && answer !== "block")
      throw badRequest('answer must be "accept", "decline" or "block".');
    e.app.runInTransaction((txApp) => {
      const found = findRequest(txApp, channelId, user.id);
      if (!found) throw notFound("This request is no longer waiting: it was answered on another device, or withdrawn.");
      const requester = found.getString("requester");
      txApp.delete(found);
      if (answer === "accept") {
        const { markLeft } = require(`${__hooks}/lib/consent.js`);
        markLeft(txApp, channelId, user.id, false);
        addMember(txApp, channelId, user.id, profileKey(txApp, user.id), requester);
        consent(txApp, user.id, requester);
        consent(txApp, requester, user.id);
        return;
      }
      if (answer === "decline") return;
      if (!hasBlocked(txApp, user.id, requester)) saveNew(txApp, "blocks", { user: user.id, blocked: requester });
      withdraw(txApp, user.id, [requester]);
      withdraw(txApp, requester, [user.id]);
      // whatever else they asked goes too
      for (const other of txApp.findRecordsByFilter("direct_requests", "user = {:user} && requester = {:requester}", "", 0, 0, {
        user: user.id,
        requester,
      }))
        txApp.delete(other);
    });
    return e.json(200, { ok: true });
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/users/unblock",
  (e) => {
    const { notFound } = require(`${__hooks}/lib/errors.js`);
    const { patterns, requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const user = requireUser(e, "Not authenticated");
    const blocked = matching(readJsonObject(e), "user_id", patterns.userId, "user_id must be a user id.");
    const found = e.app.findRecordsByFilter("blocks", "user = {:user} && blocked = {:blocked}", "", 1, 0, { user: user.id, blocked });
    if (found.length === 0) throw notFound("This person is not blocked.");
    e.app.delete(found[0]);
    return e.json(200, { ok: true });
  },
  $apis.bodyLimit(4 * 1024),
);

// Leaving a direct conversation withdraws the leaver's consent towards its other people, and notes the
// leave: starting it (or adding them to it) again is a request, not a membership, even from a colleague.
onRecordAfterDeleteSuccess((e) => {
  const membership = e.record;
  const userId = membership.getString("user");
  const channelId = membership.getString("channel");
  const channel = e.app.findRecordsByFilter("channels", "id = {:id}", "", 1, 0, { id: channelId })[0];
  // (a deleted account's memberships go with it: there is nobody left to note)
  const account = e.app.findRecordsByFilter("users", "id = {:id}", "", 1, 0, { id: userId })[0];
  if (channel && account && channel.getBool("direct")) {
    const { withdraw, markLeft } = require(`${__hooks}/lib/consent.js`);
    markLeft(e.app, channelId, userId, true);
    const others = e.app
      .findRecordsByFilter("channel_members", "channel = {:channel}", "", 0, 0, { channel: channelId })
      .map((m) => m.getString("user"));
    const partners = channel.getString("direct_key").split(":").filter(Boolean);
    withdraw(
      e.app,
      userId,
      [...others, ...partners].filter((id) => id !== userId),
    );
  }
  e.next();
}, "channel_members");
