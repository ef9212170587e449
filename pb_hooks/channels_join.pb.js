// @ts-check
/// <reference path="../types/hooks.d.ts" />

// POST /api/chat/channels/join (signed-in users)
//
// Joins a channel after checking the join verifier derived from the channel password: SHA-256 of
// the submitted verifier is compared in constant time with the stored hash. Joining a channel one
// is already a member of answers the same as a first join.
//
// Body: {channel_id, verifier, ecdh_public_key}
// Answer: {"id": "<uuid>", "name": "<channel name>"}
// Errors: 400 "Channel ID must be a UUID.", 404 "Channel not found", 403 "Incorrect password",
//         401 "Not authenticated", 429 "Too many attempts. Please wait a few minutes and try again."
routerAdd(
  "POST",
  "/api/chat/channels/join",
  (e) => {
    const { nonEmptyString } = require(`${__hooks}/lib/request.js`);
    const { readJoinRequest, requireChannel, takeJoinAttemptOrRefuse, requirePassword, addMembership } = require(
      `${__hooks}/lib/channels.js`,
    );

    const { user, body, channelId, verifier } = readJoinRequest(e);
    const ecdhPublicKey = nonEmptyString(body, "ecdh_public_key");

    const attempt = takeJoinAttemptOrRefuse(e.app, user.id, channelId);

    let name = "";

    e.app.runInTransaction((txApp) => {
      const channel = requireChannel(txApp, channelId);
      requirePassword(channel, verifier, attempt);
      name = channel.getString("name");
      addMembership(txApp, channelId, user.id, ecdhPublicKey); // joining again answers as the first join
    });

    return e.json(200, { id: channelId, name: name });
  },
  $apis.bodyLimit(16 * 1024),
);
