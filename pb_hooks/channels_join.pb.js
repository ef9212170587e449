// @ts-check
/// <reference path="../types/hooks.d.ts" />

// POST /api/chat/channels/join (signed-in users)
//
// Joins a channel after checking the join verifier derived from the channel password: SHA-256 of
// the submitted verifier is compared in constant time with the stored hash. Joining a channel one
// is already a member of answers the same as a first join.
//
// Body: {channel_id, verifier, ecdh_public_key, invite_id?}: through an invite (pb_hooks/lib/invites.js)
// its use is counted in the join's transaction; someone removed from the channel, or a guest without
// an invite, is refused (pb_hooks/lib/bans.js).
// Answer: {"id": "<uuid>", "name": "<channel name>"}
// Errors: 400 "Channel ID must be a UUID.", 404 "Channel not found", 403 "Incorrect password",
//         403 "This invite has expired." / "This invite was revoked." / "This invite has already been used.",
//         403 "You were removed from this channel.", 403 "Guests join channels through an invite.",
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
    const { checkInviteId, takeUse, validInviteFor } = require(`${__hooks}/lib/invites.js`);
    const { requireMayEnter } = require(`${__hooks}/lib/bans.js`);
    const { findMembership } = require(`${__hooks}/lib/channels.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const inviteId = body.invite_id === undefined ? "" : checkInviteId(body.invite_id);

    // (a valid invite carries the password: its join is no guess at it, and the channel's budget of
    // wrong guesses, which strangers may have spent, does not hold it up)
    const attempt = takeJoinAttemptOrRefuse(e.app, user.id, channelId, !(inviteId && validInviteFor(e.app, inviteId, channelId)));

    let name = "";

    e.app.runInTransaction((txApp) => {
      const channel = requireChannel(txApp, channelId);
      requirePassword(channel, verifier, attempt);
      name = channel.getString("name");
      if (findMembership(txApp, channelId, user.id)) return; // joining again answers as the first join
      requireMayEnter(txApp, channelId, user.id, inviteId !== "");
      if (inviteId) {
        takeUse(txApp, inviteId, channelId);
        append(txApp, e, { actor: user.id, action: "invite.used", target: inviteId, details: { channel: channelId } });
      }
      addMembership(txApp, channelId, user.id, ecdhPublicKey);
    });

    return e.json(200, { id: channelId, name: name });
  },
  $apis.bodyLimit(16 * 1024),
);
