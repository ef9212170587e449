// @ts-check
/// <reference path="../types/hooks.d.ts" />

// POST /api/chat/channels (signed-in users)
//
// The spec's create_channel_with_member: creates the channel and the creator's membership in one
// transaction, so a channel never exists without its creator as a member.
//
// Body: {id, name, verifier, ecdh_public_key, kdf_iterations}
//   id        lowercase UUID chosen by the browser (the channel key is derived with it as salt)
//   verifier  join verifier derived from the channel password (43 base64url characters); only
//             its SHA-256 is stored, hidden from the API
// Answer: {"id": "<uuid>"}; the same create asked again by its creator answers the same (nothing new made)
routerAdd(
  "POST",
  "/api/chat/channels",
  (e) => {
    const { badRequest, invalidRecord } = require(`${__hooks}/lib/errors.js`);
    const { patterns, requireUser, readJsonObject, matching, nonEmptyString, wholeNumber, characterCount } = require(
      `${__hooks}/lib/request.js`,
    );
    const { VERIFIER_MALFORMED, checkChannelId, findChannel, findMembership, verifierHash } = require(`${__hooks}/lib/channels.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);

    const { requireCanCreateChannel } = require(`${__hooks}/lib/workspace.js`);

    const user = requireUser(e, "User not authenticated");
    requireCanCreateChannel(e.app, user.id); // guests never; members unless "Admins only" (ADR 0055)
    const body = readJsonObject(e);

    const id = checkChannelId(body.id);

    const NAME_INVALID = "Channel name must be 1-100 characters.";
    if (typeof body.name !== "string") {
      throw badRequest(NAME_INVALID);
    }
    const name = body.name.trim();
    if (name.length === 0 || characterCount(name) > 100) {
      throw badRequest(NAME_INVALID);
    }

    const verifier = matching(body, "verifier", patterns.verifier, VERIFIER_MALFORMED);
    const ecdhPublicKey = nonEmptyString(body, "ecdh_public_key");
    const kdfIterations = wholeNumber(body, "kdf_iterations");
    if (body.sealed !== undefined && typeof body.sealed !== "boolean") throw badRequest("sealed must be true or false.");
    const sealed = body.sealed === true;

    const CHANNEL_EXISTS = "A channel with this ID already exists.";

    e.app.runInTransaction((txApp) => {
      const found = findChannel(txApp, id);
      // The same create asked again (its answer was lost on the way): the channel it made is the answer.
      // Only its creator, still a member, with the same verifier (which only the password derives) asks so.
      if (
        found &&
        found.getString("created_by") === user.id &&
        found.getString("verifier_hash") === verifierHash(verifier) &&
        found.getBool("sealed") === sealed &&
        findMembership(txApp, id, user.id)
      )
        return;
      if (found) {
        throw badRequest(CHANNEL_EXISTS);
      }

      const channel = new Record(txApp.findCollectionByNameOrId("channels"));
      channel.set("id", id);
      channel.set("name", name);
      channel.set("created_by", user.id);
      channel.set("verifier_hash", verifierHash(verifier));
      channel.set("kdf_iterations", kdfIterations);
      channel.set("sealed", sealed);
      try {
        txApp.save(channel);
      } catch (err) {
        throw invalidRecord(err, "Failed to create channel", { id: CHANNEL_EXISTS });
      }

      const member = new Record(txApp.findCollectionByNameOrId("channel_members"));
      member.set("channel", id);
      member.set("user", user.id);
      member.set("ecdh_public_key", ecdhPublicKey);
      try {
        txApp.save(member);
      } catch (err) {
        throw invalidRecord(err, "Failed to create channel");
      }
      // no name: the log outlives the channel
      append(txApp, e, { actor: user.id, action: "channel.created", target: id, details: { sealed } });
    });

    return e.json(200, { id: id });
  },
  $apis.bodyLimit(16 * 1024),
);
