// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Direct conversations (pb_hooks/lib/direct.js, docs/decisions/0019-conversation-seam.md).
//
// POST /api/chat/direct           {id, participants: [user ids]}   a new conversation (up to 12 people),
//                                 or the caller's one-to-one with that person when they already have one
//                                 -> {id, existing}. No name: a group's name is sealed inside its MLS group.
// POST /api/chat/direct/name      {channel_id, epoch, sealed, carry?}   a participant keeps a group's name, sealed ({kept})
//                                 under a key of the group's current epoch (ADR 0050): 409 for another epoch
// POST /api/chat/direct/add       {channel_id, participants}   a member adds people to a group conversation
//                                 (anyone who does not take the caller's DMs at once gets a request,
//                                 pb_hooks/requests.pb.js; someone who blocked the caller is "User not found")
// POST /api/chat/users/lookup     {username}   the user with exactly this name, or null; never a list.
//                                 Rate-limited per account, and answered after the same time whether
//                                 the name exists or not; null for a person who blocked the caller;
//                                 403 in words for a deactivated account (no conversation can reach it).
//
// Errors: 400 malformed input, 401 not signed in, 403 a deactivated participant (or a guest's out of
// reach), 404 user or conversation not found, 409 the group's
// epoch moved on, 429 too many look-ups.

routerAdd(
  "POST",
  "/api/chat/direct",
  (e) => {
    const { patterns, requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const { MAX_PARTICIPANTS, participantsOf, refuseName, createConversation } = require(`${__hooks}/lib/direct.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const id = matching(body, "id", patterns.uuid, "id must be a UUID.");
    const others = participantsOf(body, user.id, MAX_PARTICIPANTS - 1);
    require(`${__hooks}/lib/workspace.js`).requireMayMessage(e.app, user.id, others); // guests: shared channels only (ADR 0055)
    refuseName(body);
    /** @type {{ id: string, existing: boolean }} */
    let result = { id, existing: false };
    e.app.runInTransaction((txApp) => {
      result = createConversation(txApp, { id, creatorId: user.id, others });
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
      // (people asked and not answered yet count too)
      const count =
        txApp.countRecords("channel_members", $dbx.hashExp({ channel: channelId })) +
        txApp.countRecords("direct_requests", $dbx.hashExp({ channel: channelId }));
      const others = participantsOf(body, user.id, MAX_PARTICIPANTS - count);
      require(`${__hooks}/lib/workspace.js`).requireMayMessage(txApp, user.id, others); // guests: shared channels only (ADR 0055)
      addParticipants(txApp, channelId, others, user.id);
    });
    return e.json(200, { id: channelId });
  },
  $apis.bodyLimit(16 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/direct/name",
  (e) => {
    const { badRequest, conflict } = require(`${__hooks}/lib/errors.js`);
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { checkChannelId } = require(`${__hooks}/lib/channels.js`);
    const { requireConversation, checkSealedName } = require(`${__hooks}/lib/direct.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const channelId = checkChannelId(body.channel_id);
    const { epoch, sealed, carry } = checkSealedName(body);
    let kept = true;
    e.app.runInTransaction((txApp) => {
      const channel = requireConversation(txApp, channelId, user.id);
      if (channel.getString("direct_key")) throw badRequest("A one-to-one conversation has no name.");
      const groups = txApp.findRecordsByFilter("mls_groups", "channel = {:channel}", "", 1, 0, { channel: channelId });
      if (groups.length === 0) throw conflict("The conversation's keys changed: seal the name for the current epoch.");
      const current = groups[0].getInt("epoch");
      // A page carrying the name on to an epoch the group has left, or to one a name is sealed for
      // already (another page first, or a rename made for it meanwhile), has nothing to do: the name
      // stays as it is and the answer says so (kept: false) without refusing.
      if (carry && (current !== epoch || Number(channel.getString("sealed_name").split(".")[0] || -1) >= epoch)) {
        kept = false;
        return;
      }
      if (current !== epoch) throw conflict("The conversation's keys changed: seal the name for the current epoch.");
      channel.set("sealed_name", sealed);
      txApp.save(channel);
    });
    return e.json(200, { ok: true, kept });
  },
  $apis.bodyLimit(4 * 1024),
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
    const { hasBlocked } = require(`${__hooks}/lib/consent.js`);
    const found = e.app.findRecordsByFilter("profiles", "username = {:name}", "", 1, 0, { name: username });
    // Someone who blocked the caller is answered exactly like an unknown name (ADR 0052).
    const shown = found.length > 0 && !hasBlocked(e.app, found[0].id, user.id);
    const answer = shown ? { id: found[0].id, username: found[0].getString("username") } : null;
    // The same time either way, so the answer's speed does not tell whether the name exists.
    const floor = 150 - (Date.now() - started);
    if (floor > 0) sleep(floor);
    // A guest is told at once that this person is out of reach, not after choosing them (ADR 0055).
    if (answer) require(`${__hooks}/lib/workspace.js`).requireMayMessage(e.app, user.id, [answer.id]);
    // So is a deactivated account (ADR 0056).
    if (answer && answer.id !== user.id) require(`${__hooks}/lib/direct.js`).refuseDeactivated(e.app, answer.id);
    return e.json(200, { user: answer });
  },
  $apis.bodyLimit(4 * 1024),
);
