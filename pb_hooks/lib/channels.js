// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Channel lookups shared by the channel hooks. `app` is the request's app or a transaction app.

const { badRequest, notFound } = require(`${__hooks}/lib/errors.js`);
const { patterns } = require(`${__hooks}/lib/request.js`);

const CHANNEL_NOT_FOUND = "Channel not found";
const CHANNEL_ID_NOT_UUID = "Channel ID must be a UUID.";
const VERIFIER_MALFORMED = "Verifier must be a 43-character base64url string.";

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
    return app.findFirstRecordByFilter(
      "channel_members",
      "channel = {:channel} && user = {:user}",
      { channel: channelId, user: userId },
    );
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

module.exports = {
  CHANNEL_NOT_FOUND,
  CHANNEL_ID_NOT_UUID,
  VERIFIER_MALFORMED,
  checkChannelId,
  findChannel,
  requireChannel,
  findMembership,
  verifierHash,
};
