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
    const { forbidden, invalidRecord, tooManyRequests } = require(`${__hooks}/lib/errors.js`);
    const { patterns, requireUser, readJsonObject, matching, nonEmptyString } = require(`${__hooks}/lib/request.js`);
    const { VERIFIER_MALFORMED, checkChannelId, requireChannel, findMembership, verifierMatches } = require(`${__hooks}/lib/channels.js`);
    const { TOO_MANY_JOIN_ATTEMPTS, takeJoinAttempt } = require(`${__hooks}/lib/channels.js`);

    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);

    const channelId = checkChannelId(body.channel_id);
    const verifier = matching(body, "verifier", patterns.verifier, VERIFIER_MALFORMED);
    const ecdhPublicKey = nonEmptyString(body, "ecdh_public_key");

    // counted before the check, so that concurrent guesses cannot pass the limits
    const attempt = takeJoinAttempt(e.app, user.id, channelId);
    if (!attempt.ok) {
      throw tooManyRequests(TOO_MANY_JOIN_ATTEMPTS);
    }

    let name = "";

    e.app.runInTransaction((txApp) => {
      const channel = requireChannel(txApp, channelId);

      if (!verifierMatches(channel, verifier)) {
        throw forbidden("Incorrect password");
      }
      attempt.releaseAll(); // the right verifier is not a failed attempt

      name = channel.getString("name");

      if (findMembership(txApp, channelId, user.id)) {
        return; // already a member
      }

      const member = new Record(txApp.findCollectionByNameOrId("channel_members"));
      member.set("channel", channelId);
      member.set("user", user.id);
      member.set("ecdh_public_key", ecdhPublicKey);
      try {
        txApp.save(member);
      } catch (err) {
        throw invalidRecord(err, "Failed to join channel");
      }
    });

    return e.json(200, { id: channelId, name: name });
  },
  $apis.bodyLimit(16 * 1024),
);
