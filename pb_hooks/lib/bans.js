// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Channel admins and removals that stick (docs/decisions/0057-invites-and-bans.md). A channel's admins
// are its creator, the members the creator or a workspace admin named (channel_members.admin), and the
// workspace's owner and admins. An admin's removal bans: the removed person cannot join again, with an
// invite or the password, until an admin lifts the ban. A guest enters a channel only through an invite.
// The workspace's owner is never removed from a channel, and an admin only by the owner or an admin.

const { badRequest, forbidden, notFound } = require(`${__hooks}/lib/errors.js`);
const { patterns, requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
const { roleOf, isAdminRole } = require(`${__hooks}/lib/roles.js`);
const { findMembership, requireChannel, checkChannelId, CHANNEL_NOT_FOUND } = require(`${__hooks}/lib/channels.js`);

const REMOVED = "You were removed from this channel.";
const GUESTS_NEED_INVITE = "Guests join channels through an invite.";
const NOT_CHANNEL_ADMIN = "Only a channel admin can do this.";
const USER_ID_MALFORMED = "User ID is malformed.";
const OWNER_STAYS = "The workspace's owner cannot be removed from a channel.";
const ADMINS_REMOVE_ADMINS = "Only the workspace's owner or an admin can remove an admin from a channel.";

/**
 * @param {unknown} value
 * @returns {string}
 */
function checkUserId(value) {
  if (typeof value !== "string" || !patterns.userId.test(value)) throw badRequest(USER_ID_MALFORMED);
  return value;
}

/**
 * The request's signed-in user and its {channel_id, user_id}.
 * @param {core.RequestEvent} e
 */
function readTarget(e) {
  const user = requireUser(e, "Not authenticated");
  const body = readJsonObject(e);
  return { user, body, channelId: checkChannelId(body.channel_id), userId: checkUserId(body.user_id) };
}

/**
 * How the user may manage the channel: "creator", "admin" (named), "workspace" (owner or admin of the
 * workspace) or "" (not at all).
 * @param {core.App} app
 * @param {core.Record} channel
 * @param {string} userId
 */
function channelAdminKind(app, channel, userId) {
  if (channel.getString("created_by") === userId) return "creator";
  const membership = findMembership(app, channel.id, userId);
  if (membership && membership.getBool("admin")) return "admin";
  if (isAdminRole(roleOf(app, userId))) return "workspace";
  return "";
}

/**
 * A channel (never a direct conversation) the user may manage, or a 404/403.
 * @param {core.App} app
 * @param {string} channelId
 * @param {string} userId
 */
function requireManagedChannel(app, channelId, userId) {
  const channel = requireChannel(app, channelId);
  if (channel.getBool("direct")) throw notFound(CHANNEL_NOT_FOUND);
  const kind = channelAdminKind(app, channel, userId);
  if (!kind) throw forbidden(NOT_CHANNEL_ADMIN);
  return { channel, kind };
}

/**
 * @param {core.App} app
 * @param {string} channelId
 * @param {string} userId
 * @returns {core.Record | null}
 */
function findBan(app, channelId, userId) {
  try {
    return app.findFirstRecordByFilter("channel_bans", "channel = {:channel} && user = {:user}", { channel: channelId, user: userId });
  } catch (_) {
    return null;
  }
}

/**
 * Whether the user may become a member: a 403 for someone removed (banned), and for a guest without an
 * invite. Someone already a member passes (joining again answers as the first join).
 * @param {core.App} app
 * @param {string} channelId
 * @param {string} userId
 * @param {boolean} throughInvite
 */
function requireMayEnter(app, channelId, userId, throughInvite) {
  if (findMembership(app, channelId, userId)) return;
  if (findBan(app, channelId, userId)) throw forbidden(REMOVED);
  if (!throughInvite && roleOf(app, userId) === "guest") throw forbidden(GUESTS_NEED_INVITE);
}

/**
 * Removes a member and bans them from the channel; revokes the channel's invites they made (answered).
 * @param {core.App} txApp
 * @param {core.Record} channel
 * @param {string} userId
 * @param {string} by
 */
function removeAndBan(txApp, channel, userId, by) {
  if (channel.getString("created_by") === userId) throw forbidden("The channel creator cannot be removed.");
  // the workspace's owner and admins answer to no channel admin: the owner stays, an admin goes only
  // through the owner or another admin
  const role = roleOf(txApp, userId);
  if (role === "owner") throw forbidden(OWNER_STAYS);
  if (role === "admin" && !isAdminRole(roleOf(txApp, by))) throw forbidden(ADMINS_REMOVE_ADMINS);
  const membership = findMembership(txApp, channel.id, userId);
  if (!membership) throw notFound("Member not found");
  txApp.delete(membership);
  // nobody joins by a link of theirs either (as after a deactivation)
  const invites = txApp.findRecordsByFilter("invites", "channel = {:channel} && created_by = {:user} && revoked_at = ''", "", 0, 0, {
    channel: channel.id,
    user: userId,
  });
  for (const invite of invites) {
    invite.set("revoked_at", new DateTime());
    invite.set("revoked_by", by);
    txApp.save(invite);
  }
  if (findBan(txApp, channel.id, userId)) return invites;
  const ban = new Record(txApp.findCollectionByNameOrId("channel_bans"));
  ban.set("channel", channel.id);
  ban.set("user", userId);
  ban.set("banned_by", by);
  txApp.save(ban);
  return invites;
}

/**
 * The channel's bans, newest first, with the names of whom and by whom.
 * @param {core.App} app
 * @param {string} channelId
 */
function listBans(app, channelId) {
  return app.findRecordsByFilter("channel_bans", "channel = {:channel}", "-created", 500, 0, { channel: channelId }).map((ban) => ({
    user_id: ban.getString("user"),
    username: usernameOf(app, ban.getString("user")),
    banned_by: usernameOf(app, ban.getString("banned_by")),
    created: ban.getString("created"),
  }));
}

/**
 * @param {core.App} app
 * @param {string} userId
 */
function usernameOf(app, userId) {
  if (!userId) return "";
  try {
    return app.findRecordById("profiles", userId).getString("username");
  } catch (_) {
    return "";
  }
}

module.exports = {
  REMOVED,
  GUESTS_NEED_INVITE,
  NOT_CHANNEL_ADMIN,
  checkUserId,
  readTarget,
  channelAdminKind,
  requireManagedChannel,
  findBan,
  requireMayEnter,
  removeAndBan,
  listBans,
  usernameOf,
};
