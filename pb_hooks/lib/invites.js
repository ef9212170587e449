// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Invites (docs/decisions/0057-invites-and-bans.md): one record per link, naming its channel and its
// creator, with an expiry (1, 7 or 30 days, or never) and a number of uses (1, 10 or unlimited). The link
// carries the channel password sealed in its fragment; the server only ever sees the invite's id.

const { badRequest, forbidden, notFound, tooManyRequests } = require(`${__hooks}/lib/errors.js`);
const { roleOf, isAdminRole } = require(`${__hooks}/lib/roles.js`);
const { usernameOf, channelAdminKind } = require(`${__hooks}/lib/bans.js`);

const EXPIRY_DAYS = { "1d": 1, "7d": 7, "30d": 30, never: 0 };
const USES = [1, 10, 0];
const INVITE_NOT_FOUND = "Invite not found.";
const REFUSALS = {
  expired: "This invite has expired.",
  revoked: "This invite was revoked.",
  used: "This invite has already been used.",
};

/**
 * @param {unknown} value
 * @returns {string}
 */
function checkInviteId(value) {
  if (typeof value !== "string" || !/^[a-z0-9]{15}$/.test(value)) throw badRequest("Invite ID is malformed.");
  return value;
}

/**
 * The expiry and uses a create request asks for: {expires: "1d"|"7d"|"30d"|"never", max_uses: 1|10|0}.
 * @param {JsonObject} body
 */
function readLimits(body) {
  const expires = body.expires === undefined ? "7d" : body.expires;
  if (typeof expires !== "string" || !Object.prototype.hasOwnProperty.call(EXPIRY_DAYS, expires))
    throw badRequest('expires must be one of "1d", "7d", "30d", "never".');
  const maxUses = body.max_uses === undefined ? 0 : body.max_uses;
  if (typeof maxUses !== "number" || USES.indexOf(maxUses) < 0) throw badRequest("max_uses must be 1, 10 or 0 (unlimited).");
  return { days: /** @type {number} */ (/** @type {any} */ (EXPIRY_DAYS)[expires]), maxUses };
}

/**
 * @param {core.App} app
 * @param {string} id
 * @returns {core.Record}
 */
function requireInvite(app, id) {
  try {
    return app.findRecordById("invites", id);
  } catch (_) {
    throw notFound(INVITE_NOT_FOUND);
  }
}

/**
 * "valid", "revoked", "expired" or "used".
 * @param {core.Record} invite
 */
function statusOf(invite) {
  if (!invite.getDateTime("revoked_at").isZero()) return "revoked";
  const expires = invite.getDateTime("expires");
  if (!expires.isZero() && !expires.after(new DateTime())) return "expired";
  const max = invite.getInt("max_uses");
  if (max > 0 && invite.getInt("uses") >= max) return "used";
  return "valid";
}

/**
 * @param {core.App} txApp
 * @param {string} channelId
 * @param {string} userId
 * @param {{ days: number, maxUses: number }} limits
 */
function createInvite(txApp, channelId, userId, limits) {
  const invite = new Record(txApp.findCollectionByNameOrId("invites"));
  invite.set("channel", channelId);
  invite.set("created_by", userId);
  invite.set("max_uses", limits.maxUses);
  invite.set("uses", 0);
  if (limits.days > 0) invite.set("expires", new DateTime().addDate(0, 0, limits.days));
  txApp.save(invite);
  return invite;
}

/**
 * Whether the invite exists, is for this channel and can be used now.
 * @param {core.App} app
 * @param {string} inviteId
 * @param {string} channelId
 */
function validInviteFor(app, inviteId, channelId) {
  try {
    const invite = app.findRecordById("invites", inviteId);
    return invite.getString("channel") === channelId && statusOf(invite) === "valid";
  } catch (_) {
    return false;
  }
}

/** Invites one person may make in an hour: enough for any team, not enough to flood a channel's list and the audit log. */
const INVITES_PER_HOUR = 30;

/**
 * A 429 once the person made INVITES_PER_HOUR invites in the last hour.
 * @param {core.App} txApp
 * @param {string} userId
 */
function requireInviteAllowance(txApp, userId) {
  // (PocketBase writes `created` as 2026-12-05 10:00:00.000Z: compared as text, in order)
  const since = new Date(Date.now() - 60 * 60 * 1000).toISOString().replace("T", " ");
  const made = txApp.countRecords("invites", $dbx.exp("created_by = {:user} AND created > {:since}", { user: userId, since }));
  if (made >= INVITES_PER_HOUR) {
    throw tooManyRequests(`You made ${INVITES_PER_HOUR} invites in the last hour. Please wait a while before making more.`);
  }
}

/**
 * Counts one use of the invite for a join of its channel, or refuses it (403 with the reason). Runs in
 * the join's transaction: PocketBase runs one write transaction at a time, so two joins never both
 * take an invite's last use.
 * @param {core.App} txApp
 * @param {string} inviteId
 * @param {string} channelId
 */
function takeUse(txApp, inviteId, channelId) {
  const invite = requireInvite(txApp, inviteId);
  if (invite.getString("channel") !== channelId) throw notFound(INVITE_NOT_FOUND);
  const status = statusOf(invite);
  if (status !== "valid") throw forbidden(/** @type {any} */ (REFUSALS)[status]);
  invite.set("uses", invite.getInt("uses") + 1);
  txApp.save(invite);
  return invite;
}

/**
 * Whether the user may revoke the invite: its creator, the channel's admins, the workspace's admins.
 * @param {core.App} app
 * @param {core.Record} invite
 * @param {string} userId
 */
function mayRevoke(app, invite, userId) {
  if (invite.getString("created_by") === userId) return true;
  if (isAdminRole(roleOf(app, userId))) return true;
  try {
    return channelAdminKind(app, app.findRecordById("channels", invite.getString("channel")), userId) !== "";
  } catch (_) {
    return false;
  }
}

/**
 * An invite as listings show it. A sealed channel's name is not shown (the console reads no names of
 * sealed channels).
 * @param {core.App} app
 * @param {core.Record} invite
 */
function describe(app, invite) {
  let channelName = "";
  let sealed = false;
  try {
    const channel = app.findRecordById("channels", invite.getString("channel"));
    sealed = channel.getBool("sealed");
    channelName = sealed ? "" : channel.getString("name");
  } catch (_) {}
  const expires = invite.getDateTime("expires");
  return {
    id: invite.id,
    channel_id: invite.getString("channel"),
    channel_name: channelName,
    sealed,
    created_by: invite.getString("created_by"),
    created_by_name: usernameOf(app, invite.getString("created_by")),
    created: invite.getString("created"),
    expires: expires.isZero() ? "" : expires.string(),
    max_uses: invite.getInt("max_uses"),
    uses: invite.getInt("uses"),
    status: statusOf(invite),
  };
}

/**
 * Invites newest first: one channel's, or every channel's ("" channelId).
 * @param {core.App} app
 * @param {string} channelId
 */
function listInvites(app, channelId) {
  const filter = channelId ? "channel = {:channel}" : "";
  return app.findRecordsByFilter("invites", filter, "-created", 500, 0, { channel: channelId }).map((i) => describe(app, i));
}

module.exports = {
  requireInviteAllowance,
  validInviteFor,
  REFUSALS,
  INVITE_NOT_FOUND,
  checkInviteId,
  readLimits,
  requireInvite,
  statusOf,
  createInvite,
  takeUse,
  mayRevoke,
  listInvites,
};
