// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Changing a classic channel's password (docs/decisions/0060-changing-the-channel-password.md). A channel
// admin's page makes a new password, seals it to every other current member (channel_key_shares: the
// server stores them and cannot open them) and sends its join verifier: from then on only the new
// password joins, and the channel's invites are revoked (their links carry the old one).

const { badRequest, conflict } = require(`${__hooks}/lib/errors.js`);
const { requireManagedChannel, checkUserId } = require(`${__hooks}/lib/bans.js`);
const { verifierHash } = require(`${__hooks}/lib/channels.js`);

const SEALED_NEEDS_NOTHING = "A sealed channel has no password to change: its group is the access, and removing someone is enough.";
const CHANGED_MEANWHILE = "The channel's password was changed meanwhile. Please try again.";
const MEMBERS_CHANGED = "The channel's members changed meanwhile. Please try again.";
const SHARES_MALFORMED = "shares must be a list of {user_id, data}, one for every other member.";
const MAX_SHARE_CHARS = 8192;
const MAX_MEMBERS = 10000;
// base64url(sealed password) "." base64url(the admin's signature)
const SHARE_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * A classic channel the user may manage (a channel admin: ADR 57), or a 404/403/409.
 * @param {core.App} app
 * @param {string} channelId
 * @param {string} userId
 */
function requirePasswordChannel(app, channelId, userId) {
  const { channel } = requireManagedChannel(app, channelId, userId);
  if (channel.getBool("sealed")) throw conflict(SEALED_NEEDS_NOTHING);
  return channel;
}

/**
 * The channel's members other than `userId`, by user id.
 * @param {core.App} app
 * @param {string} channelId
 * @param {string} userId
 * @returns {string[]}
 */
function otherMembers(app, channelId, userId) {
  return app
    .findRecordsByFilter("channel_members", "channel = {:channel} && user != {:user}", "", MAX_MEMBERS, 0, {
      channel: channelId,
      user: userId,
    })
    .map((m) => m.getString("user"));
}

/**
 * The body's shares: [{user_id, data}], each user once.
 * @param {JsonObject} body
 * @returns {{ userId: string, data: string }[]}
 */
function readShares(body) {
  const shares = body.shares;
  if (!Array.isArray(shares) || shares.length > MAX_MEMBERS) throw badRequest(SHARES_MALFORMED);
  const seen = new Set();
  return shares.map((raw) => {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw badRequest(SHARES_MALFORMED);
    const share = /** @type {JsonObject} */ (raw);
    const userId = checkUserId(share.user_id);
    const data = share.data;
    if (typeof data !== "string" || data.length === 0 || data.length > MAX_SHARE_CHARS || !SHARE_PATTERN.test(data)) {
      throw badRequest(SHARES_MALFORMED);
    }
    if (seen.has(userId)) throw badRequest(SHARES_MALFORMED);
    seen.add(userId);
    return { userId, data };
  });
}

/**
 * Sets the new password's verifier and epoch, replaces the shares and revokes the channel's open
 * invites, in the caller's transaction. Answers how many invites were revoked.
 * @param {core.App} txApp
 * @param {core.Record} channel
 * @param {string} userId  the admin
 * @param {{ epoch: number, verifier: string, shares: { userId: string, data: string }[] }} change
 */
function changePassword(txApp, channel, userId, change) {
  if (change.epoch !== channel.getInt("key_epoch") + 1) throw conflict(CHANGED_MEANWHILE);
  const members = otherMembers(txApp, channel.id, userId);
  const shared = new Set(change.shares.map((s) => s.userId));
  if (members.length !== shared.size || members.some((m) => !shared.has(m))) throw conflict(MEMBERS_CHANGED);

  channel.set("verifier_hash", verifierHash(change.verifier));
  channel.set("key_epoch", change.epoch);
  txApp.save(channel);

  for (const old of txApp.findRecordsByFilter("channel_key_shares", "channel = {:channel}", "", 0, 0, { channel: channel.id })) {
    txApp.delete(old);
  }
  const collection = txApp.findCollectionByNameOrId("channel_key_shares");
  for (const share of change.shares) {
    const record = new Record(collection);
    record.set("channel", channel.id);
    record.set("user", share.userId);
    record.set("from_user", userId);
    record.set("epoch", change.epoch);
    record.set("data", share.data);
    txApp.save(record);
  }

  let revoked = 0;
  for (const invite of txApp.findRecordsByFilter("invites", "channel = {:channel} && revoked_at = ''", "", 0, 0, { channel: channel.id })) {
    invite.set("revoked_at", new DateTime());
    invite.set("revoked_by", userId);
    txApp.save(invite);
    revoked++;
  }
  return revoked;
}

/**
 * The user's shares of the channels they are a member of.
 * @param {core.App} app
 * @param {string} userId
 */
function sharesOf(app, userId) {
  return app
    .findRecordsByFilter("channel_key_shares", "user = {:user}", "", 0, 0, { user: userId })
    .filter((s) => {
      try {
        app.findFirstRecordByFilter("channel_members", "channel = {:channel} && user = {:user}", {
          channel: s.getString("channel"),
          user: userId,
        });
        return true;
      } catch (_) {
        return false;
      }
    })
    .map((s) => ({
      channel_id: s.getString("channel"),
      from: s.getString("from_user"),
      epoch: s.getInt("epoch"),
      data: s.getString("data"),
    }));
}

module.exports = { SEALED_NEEDS_NOTHING, requirePasswordChannel, otherMembers, readShares, changePassword, sharesOf };
