// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Who may be put into a direct conversation at once, and who gets a request instead
// (docs/decisions/0052-direct-messages-with-consent.md). `app` is the request's app or a transaction app.

const { notFound, invalidRecord } = require(`${__hooks}/lib/errors.js`);

/** What an unknown user id answers; a person who blocked the caller answers exactly the same. */
const USER_NOT_FOUND = "User not found";

/**
 * @param {core.App} app
 * @param {string} collection
 * @param {string} filter
 * @param {Record<string, string>} params
 */
const first = (app, collection, filter, params) => app.findRecordsByFilter(collection, filter, "", 1, 0, params)[0] || null;

/**
 * Whether the two are both members of some channel that is not a direct conversation.
 * @param {core.App} app
 * @param {string} a
 * @param {string} b
 */
function shareChannel(app, a, b) {
  const row = new DynamicModel({ found: 0 });
  app
    .db()
    .newQuery(
      "SELECT COUNT(*) AS found FROM (SELECT 1 FROM channel_members m1 JOIN channel_members m2 ON m2.channel = m1.channel " +
        "JOIN channels c ON c.id = m1.channel WHERE m1.user = {:a} AND m2.user = {:b} AND c.direct != TRUE LIMIT 1)",
    )
    .bind({ a, b })
    .one(row);
  return row.found > 0;
}

/**
 * Whether `targetId` takes DMs from `requesterId` at once: they share a channel, or the target
 * accepted the requester's DMs before (and has not withdrawn it by leaving).
 * @param {core.App} app
 * @param {string} targetId
 * @param {string} requesterId
 */
function admits(app, targetId, requesterId) {
  return (
    Boolean(first(app, "direct_consents", "user = {:user} && peer = {:peer}", { user: targetId, peer: requesterId })) ||
    shareChannel(app, targetId, requesterId)
  );
}

/**
 * @param {core.App} app
 * @param {string} userId
 * @param {string} blockedId
 */
function hasBlocked(app, userId, blockedId) {
  return Boolean(first(app, "blocks", "user = {:user} && blocked = {:blocked}", { user: userId, blocked: blockedId }));
}

/**
 * A 404 "User not found" when `targetId` blocked `callerId`: the same answer as for no such user.
 * @param {core.App} app
 * @param {string} targetId
 * @param {string} callerId
 */
function refuseBlocked(app, targetId, callerId) {
  if (hasBlocked(app, targetId, callerId)) throw notFound(USER_NOT_FOUND);
}

/**
 * @param {core.App} txApp
 * @param {string} collection
 * @param {Record<string, string>} fields
 */
function saveNew(txApp, collection, fields) {
  const record = new Record(txApp.findCollectionByNameOrId(collection));
  for (const [name, value] of Object.entries(fields)) record.set(name, value);
  try {
    txApp.save(record);
  } catch (err) {
    throw invalidRecord(err, "The conversation could not be saved.");
  }
  return record;
}

/**
 * `userId` accepts DMs from `peerId` from now on (kept once).
 * @param {core.App} txApp
 * @param {string} userId
 * @param {string} peerId
 */
function consent(txApp, userId, peerId) {
  if (userId === peerId || first(txApp, "direct_consents", "user = {:user} && peer = {:peer}", { user: userId, peer: peerId })) return;
  saveNew(txApp, "direct_consents", { user: userId, peer: peerId });
}

/**
 * `userId` no longer accepts DMs from these people at once.
 * @param {core.App} txApp
 * @param {string} userId
 * @param {string[]} peerIds
 */
function withdraw(txApp, userId, peerIds) {
  for (const peer of peerIds) {
    const found = first(txApp, "direct_consents", "user = {:user} && peer = {:peer}", { user: userId, peer });
    if (found) txApp.delete(found);
  }
}

/**
 * A request for `userId` to join the conversation, from `requesterId` (kept once per conversation).
 * @param {core.App} txApp
 * @param {string} channelId
 * @param {string} userId
 * @param {string} requesterId
 */
function request(txApp, channelId, userId, requesterId) {
  if (first(txApp, "direct_requests", "channel = {:channel} && user = {:user}", { channel: channelId, user: userId })) return;
  saveNew(txApp, "direct_requests", { channel: channelId, user: userId, requester: requesterId });
}

/**
 * Whether `userId` left this conversation (and has not come back since).
 * @param {core.App} app
 * @param {string} channelId
 * @param {string} userId
 */
const hasLeft = (app, channelId, userId) =>
  Boolean(first(app, "direct_left", "channel = {:channel} && user = {:user}", { channel: channelId, user: userId }));

/**
 * Notes that `userId` left the conversation, or (`left` false) that they are back.
 * @param {core.App} txApp
 * @param {string} channelId
 * @param {string} userId
 * @param {boolean} left
 */
function markLeft(txApp, channelId, userId, left) {
  const found = first(txApp, "direct_left", "channel = {:channel} && user = {:user}", { channel: channelId, user: userId });
  if (left && !found) saveNew(txApp, "direct_left", { channel: channelId, user: userId });
  if (!left && found) txApp.delete(found);
}

/**
 * The caller's request for this conversation, or null.
 * @param {core.App} app
 * @param {string} channelId
 * @param {string} userId
 */
const findRequest = (app, channelId, userId) =>
  first(app, "direct_requests", "channel = {:channel} && user = {:user}", { channel: channelId, user: userId });

module.exports = { USER_NOT_FOUND, hasLeft, markLeft, admits, hasBlocked, refuseBlocked, consent, withdraw, request, findRequest, saveNew };
