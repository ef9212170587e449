// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Direct conversations (pb_hooks/lib/direct.js, docs/decisions/0019-conversation-seam.md).
//
// POST /api/chat/direct           {id, participants: [user ids], name?}   a new conversation (up to 12 people),
//                                 or the caller's one-to-one with that person when they already have one
//                                 -> {id, existing}
// POST /api/chat/direct/add       {channel_id, participants}   a member adds people to a group conversation
// POST /api/chat/users/lookup     {username}   the user with exactly this name, or null; never a list.
//                                 Rate-limited per account, and answered after the same time whether
//                                 the name exists or not.
//
// Errors: 400 malformed input, 401 not signed in, 404 user or conversation not found, 429 too many look-ups.

routerAdd(
  "POST",
  "/api/chat/direct",
  (e) => {
    const { patterns, requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const { MAX_PARTICIPANTS, participantsOf, nameOf, createConversation } = require(`${__hooks}/lib/direct.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const id = matching(body, "id", patterns.uuid, "id must be a UUID.");
    const others = participantsOf(body, user.id, MAX_PARTICIPANTS - 1);
    const name = nameOf(body);
    /** @type {{ id: string, existing: boolean }} */
    let result = { id, existing: false };
    e.app.runInTransaction((txApp) => {
      result = createConversation(txApp, { id, creatorId: user.id, others, name });
    });
    return e.json(200, result);
  },
  $apis.bodyLimit(16 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/direct/add",
  (e) => {
    const { badRequest } = require(`${__hooks}/lib/errors.js`);
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { checkChannelId } = require(`${__hooks}/lib/channels.js`);
    const { MAX_PARTICIPANTS, participantsOf, addParticipants, requireConversation } = require(`${__hooks}/lib/direct.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const channelId = checkChannelId(body.channel_id);
    e.app.runInTransaction((txApp) => {
      const channel = requireConversation(txApp, channelId, user.id);
      if (channel.getString("direct_key")) throw badRequest("People can be added to group conversations only.");
      const count = txApp.countRecords("channel_members", $dbx.hashExp({ channel: channelId }));
      addParticipants(txApp, channelId, participantsOf(body, user.id, MAX_PARTICIPANTS - count), user.id);
    });
    return e.json(200, { id: channelId });
  },
  $apis.bodyLimit(16 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/users/lookup",
  (e) => {
    const { tooManyRequests } = require(`${__hooks}/lib/errors.js`);
    const { patterns, requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const { take } = require(`${__hooks}/lib/limits.js`);
    const started = Date.now();
    const user = requireUser(e, "Not authenticated");
    const username = matching(readJsonObject(e), "username", patterns.username, "Username must be 3-32 letters, digits, _ . or -.");
    if (
      !take(e.app, `lookup ${user.id}`, [
        { windowMs: 60 * 1000, max: 20 },
        { windowMs: 60 * 60 * 1000, max: 200 },
      ])
    )
      throw tooManyRequests("Too many look-ups. Please wait a minute and try again.");
    const found = e.app.findRecordsByFilter("profiles", "username = {:name}", "", 1, 0, { name: username });
    const answer = found.length > 0 ? { id: found[0].id, username: found[0].getString("username") } : null;
    // The same time either way, so the answer's speed does not tell whether the name exists.
    const floor = 150 - (Date.now() - started);
    if (floor > 0) sleep(floor);
    return e.json(200, { user: answer });
  },
  $apis.bodyLimit(4 * 1024),
);
