// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Direct conversations (pb_hooks/direct.pb.js, docs/decisions/0019-conversation-seam.md): channel
// records marked `direct`, sealed (MLS), whose members are listed by a member rather than admitted by a
// password.

const { badRequest, forbidden, notFound, invalidRecord } = require(`${__hooks}/lib/errors.js`);
const { patterns } = require(`${__hooks}/lib/request.js`);
const { requireChannel, findMembership, verifierHash } = require(`${__hooks}/lib/channels.js`);
const { USER_NOT_FOUND, admits, hasLeft, markLeft, refuseBlocked, consent, request, findRequest } = require(`${__hooks}/lib/consent.js`);

/** Participants of one direct conversation, its creator included. */
const MAX_PARTICIPANTS = 12;
const NOT_FOUND = "Conversation not found";

/**
 * The other participants named in `body.participants`: user ids, without the caller, without repeats.
 * @param {JsonObject} body
 * @param {string} callerId
 * @param {number} room how many may be added
 */
function participantsOf(body, callerId, room) {
  const list = body.participants;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_PARTICIPANTS)
    throw badRequest(`participants must list 1 to ${MAX_PARTICIPANTS - 1} people.`);
  /** @type {string[]} */
  const ids = [];
  for (const id of list) {
    if (typeof id !== "string" || !patterns.userId.test(id)) throw badRequest("participants must be user ids.");
    if (id !== callerId && ids.indexOf(id) < 0) ids.push(id);
  }
  if (ids.length === 0) throw badRequest("Choose at least one other person.");
  if (ids.length > room) throw badRequest(`A conversation has at most ${MAX_PARTICIPANTS} people.`);
  return ids;
}

/**
 * A conversation's name is never sent here (ADR 0050): it is sealed inside its MLS group.
 * @param {JsonObject} body
 */
function refuseName(body) {
  if (body.name !== undefined && body.name !== null && body.name !== "")
    throw badRequest("A conversation's name is not sent to the server: it is kept sealed inside the conversation.");
}

/**
 * A group's name sealed for an epoch (app/features/direct/names.ts): "<epoch>.<base64url>", at most 1000 characters.
 * @param {JsonObject} body
 * @returns {{ epoch: number, sealed: string, carry: boolean }}
 */
function checkSealedName(body) {
  const epoch = body.epoch;
  if (typeof epoch !== "number" || !Number.isSafeInteger(epoch) || epoch < 0) throw badRequest("epoch must be a whole number.");
  const sealed = body.sealed;
  if (
    typeof sealed !== "string" ||
    sealed.length > 1000 ||
    !/^\d{1,10}\.[A-Za-z0-9_-]{16,}$/.test(sealed) ||
    Number(sealed.split(".")[0]) !== epoch
  )
    throw badRequest("sealed must be a name sealed for that epoch.");
  // (a name carried on to a new epoch, not a rename: kept only while none is sealed for that epoch yet)
  if (body.carry !== undefined && typeof body.carry !== "boolean") throw badRequest("carry must be true or false.");
  return { epoch, sealed, carry: body.carry === true };
}

/**
 * The ECDH public key of a participant's profile (what a membership records); a 404 for no such user.
 * @param {core.App} app
 * @param {string} userId
 */
function profileKey(app, userId) {
  try {
    return app.findRecordById("profiles", userId).getString("ecdh_public_key");
  } catch (_) {
    throw notFound(USER_NOT_FOUND);
  }
}

/**
 * The ECDH public key of a person `callerId` may put into a conversation: 404 "User not found" for no
 * such user and, exactly the same, for a person who blocked the caller (ADR 0052).
 * @param {core.App} app
 * @param {string} userId
 * @param {string} callerId
 */
function participantKey(app, userId, callerId) {
  const key = profileKey(app, userId);
  if (userId !== callerId) {
    refuseBlocked(app, userId, callerId);
    refuseDeactivated(app, userId);
  }
  return key;
}

/**
 * A 403 in words for a deactivated account (ADR 0056): it gets no new conversation, membership or
 * request, whoever asks (its reactivation brings back no memberships).
 * @param {core.App} app
 * @param {string} userId
 */
function refuseDeactivated(app, userId) {
  const profile = app.findRecordById("profiles", userId);
  if (profile.getBool("deactivated"))
    throw forbidden(`${profile.getString("username")}'s account is deactivated: they cannot be messaged.`);
}

/**
 * Adds each user as a member (those who are already members stay as they are), noting who added them.
 * Someone who does not take DMs from the adder at once (ADR 0052: no shared channel, no earlier
 * consent), or who left this conversation, gets a request instead of a membership. The adder takes
 * DMs from each of them from now on.
 * @param {core.App} txApp
 * @param {string} channelId
 * @param {string[]} userIds
 * @param {string} addedBy
 */
function addParticipants(txApp, channelId, userIds, addedBy) {
  for (const userId of userIds) {
    const key = participantKey(txApp, userId, addedBy);
    if (userId !== addedBy) consent(txApp, addedBy, userId);
    else dropRequest(txApp, channelId, userId); // starting it again oneself is accepting it
    if (findMembership(txApp, channelId, userId)) continue;
    // (someone who left this conversation is asked again, whoever adds them)
    if (userId !== addedBy && (hasLeft(txApp, channelId, userId) || !admits(txApp, userId, addedBy))) {
      request(txApp, channelId, userId, addedBy);
      continue;
    }
    markLeft(txApp, channelId, userId, false);
    addMember(txApp, channelId, userId, key, userId === addedBy ? "" : addedBy);
  }
}

/**
 * @param {core.App} txApp
 * @param {string} channelId
 * @param {string} userId
 */
function dropRequest(txApp, channelId, userId) {
  const found = findRequest(txApp, channelId, userId);
  if (found) txApp.delete(found);
}

/**
 * A membership of a direct conversation.
 * @param {core.App} txApp
 * @param {string} channelId
 * @param {string} userId
 * @param {string} key the member's ECDH public key
 * @param {string} addedBy who added them ("" for the creator)
 */
function addMember(txApp, channelId, userId, key, addedBy) {
  const member = new Record(txApp.findCollectionByNameOrId("channel_members"));
  member.set("channel", channelId);
  member.set("user", userId);
  member.set("ecdh_public_key", key);
  if (addedBy) member.set("added_by", addedBy);
  try {
    txApp.save(member);
  } catch (err) {
    throw invalidRecord(err, "The conversation could not be saved.");
  }
}

/**
 * Creates a direct conversation with its members, or answers the one-to-one conversation the two
 * already have: the creator is added back if they had left; the other, if they had left, is asked
 * again (a request) unless they take the creator's DMs at once.
 * @param {core.App} txApp
 * @param {{ id: string, creatorId: string, others: string[] }} c
 * @returns {{ id: string, existing: boolean }}
 */
function createConversation(txApp, c) {
  for (const id of c.others) participantKey(txApp, id, c.creatorId);
  const key = c.others.length === 1 ? [c.creatorId, c.others[0]].sort().join(":") : "";
  if (key) {
    const found = txApp.findRecordsByFilter("channels", "direct_key = {:key}", "", 1, 0, { key });
    if (found.length > 0) {
      addParticipants(txApp, found[0].id, [c.creatorId, ...c.others], c.creatorId);
      return { id: found[0].id, existing: true };
    }
  }
  // The same start asked again (its answer was lost on the way): the conversation it made is the answer.
  const made = findOwnGroup(txApp, c.id, c.creatorId);
  if (made) return { id: made.id, existing: false };
  const channel = new Record(txApp.findCollectionByNameOrId("channels"));
  channel.set("id", c.id);
  channel.set("name", "");
  channel.set("created_by", c.creatorId);
  // No password: a random verifier nobody holds (and password joins refuse direct conversations).
  channel.set("verifier_hash", verifierHash($security.randomString(43)));
  channel.set("kdf_iterations", 600000);
  channel.set("sealed", true);
  channel.set("direct", true);
  channel.set("direct_key", key);
  try {
    txApp.save(channel);
  } catch (err) {
    throw invalidRecord(err, "The conversation could not be created.", { id: "A conversation with this ID already exists." });
  }
  addParticipants(txApp, c.id, [c.creatorId, ...c.others], c.creatorId);
  return { id: c.id, existing: false };
}

/**
 * The group conversation with this id that this user started and is still in, or null.
 * @param {core.App} txApp
 * @param {string} id
 * @param {string} creatorId
 */
function findOwnGroup(txApp, id, creatorId) {
  const found = txApp.findRecordsByFilter(
    "channels",
    "id = {:id} && direct = true && direct_key = '' && created_by = {:creator}",
    "",
    1,
    0,
    {
      id,
      creator: creatorId,
    },
  );
  return found.length > 0 && findMembership(txApp, id, creatorId) ? found[0] : null;
}

/**
 * A direct conversation the caller is a member of (404 otherwise, the same whether or not it exists).
 * @param {core.App} app
 * @param {string} channelId
 * @param {string} userId
 */
function requireConversation(app, channelId, userId) {
  let channel;
  try {
    channel = requireChannel(app, channelId);
  } catch (_) {
    throw notFound(NOT_FOUND);
  }
  if (!channel.getBool("direct") || !findMembership(app, channelId, userId)) throw notFound(NOT_FOUND);
  return channel;
}

module.exports = {
  MAX_PARTICIPANTS,
  refuseDeactivated,
  participantsOf,
  refuseName,
  checkSealedName,
  createConversation,
  addParticipants,
  addMember,
  profileKey,
  requireConversation,
};
