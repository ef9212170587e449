// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// The delivery service of sealed channels (pb_hooks/mls.pb.js): commits accepted only for the current
// epoch (the first valid one wins), the latest GroupInfo kept for external joins; key-package claims are
// in mls_claims.js. The server never reads MLS content: it orders and stores what members send, after
// checking what it can see of it (pocketbase/mlscheck.go).

const { badRequest, conflict, forbidden, notFound, invalidRecord } = require(`${__hooks}/lib/errors.js`);
const { matching, patterns, requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
const { VERIFIER_MALFORMED, checkChannelId, requireChannel, findMembership, takeJoinAttemptOrRefuse, requirePassword } = require(
  `${__hooks}/lib/channels.js`,
);

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const DEVICE = /^[A-Za-z0-9_-]{8,64}$/;
const MAX_ONE_TIME = 50;

const STALE_COMMIT = "This commit is for an earlier epoch: fetch the newer commits and try again.";
const NO_GROUP = "This channel is not sealed.";
const NOT_MEMBER = "You are not a member of this conversation.";

/**
 * @param {JsonObject} body
 * @param {string} name
 * @param {number} max
 */
function mlsData(body, name, max) {
  const value = matching(body, name, BASE64URL, `${name} must be MLS data in base64url.`);
  if (value.length > max) throw badRequest(`${name} is too large.`);
  return value;
}

/** @param {JsonObject} body */
function epochOf(body) {
  const value = body.epoch;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw badRequest("epoch must be a whole number, 0 or more.");
  return value;
}

/** @param {JsonObject} body */
function deviceOf(body) {
  return matching(body, "device", DEVICE, "device must be 8 to 64 letters, digits, - or _.");
}

/**
 * @param {core.App} app
 * @param {string} channelId
 * @returns {core.Record}
 */
function requireGroup(app, channelId) {
  try {
    return app.findFirstRecordByFilter("mls_groups", "channel = {:channel}", { channel: channelId });
  } catch (_) {
    throw notFound(NO_GROUP);
  }
}

/**
 * Refuses (400) a GroupInfo that is not this channel's group's at `epoch`, in our cipher suite, signed
 * by a leaf of the caller's own devices ($mlsCheck, pocketbase/mlscheck.go): only such ones are kept.
 * @param {string} channelId
 * @param {number} epoch
 * @param {string} groupInfo
 * @param {string} userId
 */
function requireValidGroupInfo(channelId, epoch, groupInfo, userId) {
  const why = $mlsCheck.groupInfo(groupInfo, channelId, epoch, userId);
  if (why) throw badRequest(why);
}

/**
 * Accepts a commit for `epoch` if that is the group's current epoch: checks what the server can see of
 * it and of its GroupInfo (400 when they are not this group's commit for this epoch and GroupInfo of the
 * next), stores it, moves the group to the next epoch and keeps its GroupInfo. Run inside a
 * transaction, so of two commits for one epoch exactly one is accepted; the other is answered 409 (the
 * sender processes the winner and tries again).
 * @param {core.App} txApp
 * @param {{ channelId: string, userId: string, epoch: number, commit: string, groupInfo: string, external: boolean }} c
 */
function acceptCommit(txApp, c) {
  const group = requireGroup(txApp, c.channelId);
  if (group.getInt("epoch") !== c.epoch) throw conflict(STALE_COMMIT);
  const why = $mlsCheck.commit(c.commit, c.channelId, c.epoch, c.external);
  if (why) throw badRequest(why);
  requireValidGroupInfo(c.channelId, c.epoch + 1, c.groupInfo, c.userId);
  // A public commit's sender is the device that signed that GroupInfo (an external one: checked
  // against the kept GroupInfo it was made from).
  const sender = $mlsCheck.commitSender(c.commit, group.getString("group_info"), c.groupInfo);
  if (sender) throw badRequest(sender);
  const record = new Record(txApp.findCollectionByNameOrId("mls_commits"));
  record.set("channel", c.channelId);
  record.set("epoch", c.epoch);
  record.set("sender", c.userId);
  record.set("data", c.commit);
  try {
    txApp.save(record);
  } catch (err) {
    throw conflict(STALE_COMMIT);
  }
  group.set("epoch", c.epoch + 1);
  group.set("group_info", c.groupInfo);
  try {
    txApp.save(group);
  } catch (err) {
    throw invalidRecord(err, "The group could not be updated.");
  }
  return c.epoch + 1;
}

/**
 * @param {core.App} app
 * @param {string} channelId
 * @param {string} userId
 */
function requireMember(app, channelId, userId) {
  requireChannel(app, channelId);
  if (!findMembership(app, channelId, userId)) throw forbidden(NOT_MEMBER);
}

/**
 * The accepted commits of a channel from `since` on, in epoch order (at most `limit`).
 * @param {core.App} app
 * @param {string} channelId
 * @param {number} since
 * @param {number} limit
 */
function commitsSince(app, channelId, since, limit) {
  return app
    .findRecordsByFilter("mls_commits", "channel = {:channel} && epoch >= {:since}", "epoch", limit, 0, { channel: channelId, since })
    .map((r) => ({ epoch: r.getInt("epoch"), data: r.getString("data") }));
}

/**
 * A request to take part in a channel's MLS group (its GroupInfo, an external join): `admit` checks,
 * with the app it is given (a transaction's too), the channel password's verifier in a sealed
 * channel (counted against the join limits), or in a direct conversation that the caller is listed.
 * @param {core.RequestEvent} e
 */
function readGroupJoin(e) {
  const user = requireUser(e, "Not authenticated");
  const body = readJsonObject(e);
  const channelId = checkChannelId(body.channel_id);
  if (requireChannel(e.app, channelId).getBool("direct")) {
    return { user, body, channelId, admit: (/** @type {core.App} */ app) => requireMember(app, channelId, user.id) };
  }
  const verifier = matching(body, "verifier", patterns.verifier, VERIFIER_MALFORMED);
  const attempt = takeJoinAttemptOrRefuse(e.app, user.id, channelId);
  return {
    user,
    body,
    channelId,
    admit: (/** @type {core.App} */ app) => {
      requirePassword(requireChannel(app, channelId), verifier, attempt);
      // someone removed, or a guest who never joined through an invite, does not enter this way either
      require(`${__hooks}/lib/bans.js`).requireMayEnter(app, channelId, user.id, false);
    },
  };
}

/**
 * Keeps the Welcome of a commit that added devices, for them to join from.
 * @param {core.App} txApp
 * @param {string} channelId
 * @param {number} epoch the epoch the commit was made at
 * @param {string} data
 */
function saveWelcome(txApp, channelId, epoch, data) {
  const record = new Record(txApp.findCollectionByNameOrId("mls_welcomes"));
  record.set("channel", channelId);
  record.set("epoch", epoch);
  record.set("data", data);
  try {
    txApp.save(record);
  } catch (err) {
    throw invalidRecord(err, "The welcome could not be saved.");
  }
}

module.exports = {
  readGroupJoin,
  saveWelcome,
  commitsSince,
  MAX_ONE_TIME,
  STALE_COMMIT,
  mlsData,
  epochOf,
  deviceOf,
  requireGroup,
  acceptCommit,
  requireValidGroupInfo,
  requireMember,
};
