// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Channel lookups shared by the channel hooks. `app` is the request's app or a transaction app.

const { badRequest, forbidden, invalidRecord, notFound, tooManyRequests } = require(`${__hooks}/lib/errors.js`);
const { patterns, requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
const { takeAll } = require(`${__hooks}/lib/limits.js`);

const CHANNEL_NOT_FOUND = "Channel not found";
const CHANNEL_ID_NOT_UUID = "Channel ID must be a UUID.";
const VERIFIER_MALFORMED = "Verifier must be a 43-character base64url string.";
const TOO_MANY_JOIN_ATTEMPTS = "Too many attempts. Please wait a few minutes and try again.";
// (the channel's budget, spent by anyone's wrong guesses: not the caller's doing, and an invite link still works)
const TOO_MANY_CHANNEL_JOINS =
  "Too many wrong passwords were tried for this channel lately. Please wait a few minutes and try again, or join with an invite link.";

// Failed joins (online password guesses) allowed per account and per channel, on top of
// PocketBase's limit per client address (pb_migrations/1795366000_app_settings.js).
const JOIN_FAILURE_LIMITS = {
  account: [{ windowMs: 10 * 60 * 1000, max: 10 }],
  channel: [{ windowMs: 10 * 60 * 1000, max: 30 }],
};

/**
 * @param {unknown} value
 * @returns {string}
 */
function checkChannelId(value) {
  if (typeof value !== "string" || !patterns.uuid.test(value)) {
    throw badRequest(CHANNEL_ID_NOT_UUID);
  }
  return value;
}

/**
 * @param {core.App} app
 * @param {string} channelId
 * @returns {core.Record | null}
 */
function findChannel(app, channelId) {
  try {
    return app.findRecordById("channels", channelId);
  } catch (_) {
    return null;
  }
}

/**
 * @param {core.App} app
 * @param {string} channelId
 * @returns {core.Record}
 */
function requireChannel(app, channelId) {
  const channel = findChannel(app, channelId);
  if (!channel) {
    throw notFound(CHANNEL_NOT_FOUND);
  }
  return channel;
}

/**
 * @param {core.App} app
 * @param {string} channelId
 * @param {string} userId
 * @returns {core.Record | null}
 */
function findMembership(app, channelId, userId) {
  try {
    return app.findFirstRecordByFilter("channel_members", "channel = {:channel} && user = {:user}", { channel: channelId, user: userId });
  } catch (_) {
    return null;
  }
}

// What the server stores about a channel password: SHA-256 (hex) of the join verifier the
// browser derives from it. The verifier itself is never stored.
/** @param {string} verifier */
function verifierHash(verifier) {
  return $security.sha256(verifier);
}

// The channel password proven: SHA-256 of the submitted verifier compared in constant time with the stored hash.
/**
 * @param {core.Record} channel
 * @param {string} verifier
 */
function verifierMatches(channel, verifier) {
  return $security.equal(verifierHash(verifier), channel.getString("verifier_hash"));
}

// Counts a join attempt against the account's and the channel's limits of failed attempts,
// before the verifier is checked, so that concurrent guesses cannot pass the limits. Answers
// {ok: false} when either limit is reached (every attempt is then refused, right or wrong), or
// {ok: true, releaseAll} where releaseAll un-counts an attempt that turned out right.
/**
 * @param {core.App} app
 * @param {string} userId
 * @param {string} channelId
 * @param {boolean} [channelWide] counted against the channel's budget too (not for a valid invite's join)
 */
function takeJoinAttempt(app, userId, channelId, channelWide = true) {
  const entries = [{ key: `join.account ${userId}`, limits: JOIN_FAILURE_LIMITS.account }];
  if (channelWide) entries.push({ key: `join.channel ${channelId}`, limits: JOIN_FAILURE_LIMITS.channel });
  return takeAll(app, entries);
}

// The signed-in user and the body of a request that proves the channel password: {channel_id, verifier, ...}.
/** @param {core.RequestEvent} e */
function readJoinRequest(e) {
  const user = requireUser(e, "Not authenticated");
  const body = readJsonObject(e);
  const channelId = checkChannelId(body.channel_id);
  const verifier = matching(body, "verifier", patterns.verifier, VERIFIER_MALFORMED);
  return { user, body, channelId, verifier };
}

// A join attempt counted before the password is checked (so that concurrent guesses cannot pass the
// limits), or a 429 when a limit is reached.
/**
 * @param {core.App} app
 * @param {string} userId
 * @param {string} channelId
 * @param {boolean} [channelWide]
 */
function takeJoinAttemptOrRefuse(app, userId, channelId, channelWide = true) {
  const attempt = takeJoinAttempt(app, userId, channelId, channelWide);
  if (!attempt.ok) throw tooManyRequests(attempt.failedAt === 1 ? TOO_MANY_CHANNEL_JOINS : TOO_MANY_JOIN_ATTEMPTS);
  return attempt;
}

// The channel password proven by its verifier, or a 403; the right verifier is not a failed attempt.
/**
 * @param {core.Record} channel
 * @param {string} verifier
 * @param {{ releaseAll: () => void }} attempt
 */
function requirePassword(channel, verifier, attempt) {
  // A direct conversation has no password: nobody joins it that way (nor learns it exists).
  if (channel.getBool("direct")) throw notFound(CHANNEL_NOT_FOUND);
  if (!verifierMatches(channel, verifier)) throw forbidden("Incorrect password");
  attempt.releaseAll();
}

// Makes the user a member of the channel unless they are one already.
/**
 * @param {core.App} txApp
 * @param {string} channelId
 * @param {string} userId
 * @param {string} ecdhPublicKey
 */
function addMembership(txApp, channelId, userId, ecdhPublicKey) {
  if (findMembership(txApp, channelId, userId)) return;
  const member = new Record(txApp.findCollectionByNameOrId("channel_members"));
  member.set("channel", channelId);
  member.set("user", userId);
  member.set("ecdh_public_key", ecdhPublicKey);
  try {
    txApp.save(member);
  } catch (err) {
    throw invalidRecord(err, "Failed to join channel");
  }
}

module.exports = {
  CHANNEL_NOT_FOUND,
  TOO_MANY_JOIN_ATTEMPTS,
  TOO_MANY_CHANNEL_JOINS,
  JOIN_FAILURE_LIMITS,
  takeJoinAttempt,
  CHANNEL_ID_NOT_UUID,
  VERIFIER_MALFORMED,
  checkChannelId,
  findChannel,
  requireChannel,
  findMembership,
  verifierHash,
  verifierMatches,
  readJoinRequest,
  takeJoinAttemptOrRefuse,
  requirePassword,
  addMembership,
};
