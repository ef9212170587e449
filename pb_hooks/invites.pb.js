// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Invites with limits (docs/decisions/0057-invites-and-bans.md; pb_hooks/lib/invites.js).
//
// POST /api/chat/invites {channel_id, expires: "1d"|"7d"|"30d"|"never", max_uses: 1|10|0}
//   a member of the channel (not a guest) makes an invite -> {id, expires, max_uses}
// GET  /api/chat/invites/preview?id=  anyone holding the link: {status, channel_id, sealed, name, inviter}
//   status "valid" | "expired" | "revoked" | "used" | "removed" (the signed-in reader was removed)
// GET  /api/chat/invites?channel_id=  the channel's admins: its invites; without channel_id, the
//   workspace's admins: every invite
// POST /api/chat/invites/revoke {invite_id, as_admin?}  the invite's creator, the channel's or the workspace's
//   admins (as_admin: true, the console: the workspace's admins only)
// Joining through an invite: POST /api/chat/channels/join with invite_id (channels_join.pb.js).

routerAdd(
  "POST",
  "/api/chat/invites",
  (e) => {
    const { forbidden, notFound } = require(`${__hooks}/lib/errors.js`);
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { checkChannelId, requireChannel, findMembership, CHANNEL_NOT_FOUND } = require(`${__hooks}/lib/channels.js`);
    const { readLimits, createInvite, requireInviteAllowance } = require(`${__hooks}/lib/invites.js`);
    const { roleOf } = require(`${__hooks}/lib/roles.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const channelId = checkChannelId(body.channel_id);
    const limits = readLimits(body);
    /** @type {core.Record | null} */
    let invite = null;
    e.app.runInTransaction((txApp) => {
      const channel = requireChannel(txApp, channelId);
      if (channel.getBool("direct") || !findMembership(txApp, channelId, user.id)) throw notFound(CHANNEL_NOT_FOUND);
      if (roleOf(txApp, user.id) === "guest") throw forbidden("Guests cannot invite people.");
      requireInviteAllowance(txApp, user.id);
      invite = createInvite(txApp, channelId, user.id, limits);
      append(txApp, e, {
        actor: user.id,
        action: "invite.created",
        target: invite.id,
        details: { channel: channelId, days: limits.days, max_uses: limits.maxUses },
      });
    });
    const made = /** @type {core.Record} */ (/** @type {unknown} */ (invite));
    const expires = made.getDateTime("expires");
    return e.json(200, { id: made.id, expires: expires.isZero() ? "" : expires.string(), max_uses: made.getInt("max_uses") });
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd("GET", "/api/chat/invites/preview", (e) => {
  const { checkInviteId, requireInvite, statusOf } = require(`${__hooks}/lib/invites.js`);
  const { findBan, usernameOf } = require(`${__hooks}/lib/bans.js`);
  const { findMembership } = require(`${__hooks}/lib/channels.js`);
  const invite = requireInvite(e.app, checkInviteId(e.request.url.query().get("id")));
  const channel = e.app.findRecordById("channels", invite.getString("channel"));
  const sealed = channel.getBool("sealed");
  const reader = e.auth && e.auth.collection().name === "users" ? e.auth.id : "";
  const member = reader !== "" && findMembership(e.app, channel.id, reader) !== null;
  const removed = reader !== "" && !member && findBan(e.app, channel.id, reader) !== null;
  return e.json(200, {
    status: removed ? "removed" : statusOf(invite),
    // (the reader is in the channel already: a link used up, expired or revoked still opens it for them)
    member,
    channel_id: channel.id,
    sealed,
    // a sealed channel's name only travels in the link, sealed with its password
    name: sealed ? "" : channel.getString("name"),
    inviter: usernameOf(e.app, invite.getString("created_by")),
  });
});

routerAdd("GET", "/api/chat/invites", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { checkChannelId } = require(`${__hooks}/lib/channels.js`);
  const { requireManagedChannel } = require(`${__hooks}/lib/bans.js`);
  const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
  const { listInvites } = require(`${__hooks}/lib/invites.js`);
  const user = requireUser(e, "Not authenticated");
  const asked = e.request.url.query().get("channel_id");
  if (asked === "") {
    requireAdmin(e.app, user.id);
    return e.json(200, { invites: listInvites(e.app, "") });
  }
  const channelId = checkChannelId(asked);
  requireManagedChannel(e.app, channelId, user.id);
  return e.json(200, { invites: listInvites(e.app, channelId) });
});

routerAdd(
  "POST",
  "/api/chat/invites/revoke",
  (e) => {
    const { forbidden } = require(`${__hooks}/lib/errors.js`);
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { checkInviteId, requireInvite, mayRevoke } = require(`${__hooks}/lib/invites.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const inviteId = checkInviteId(body.invite_id);
    // the admin console's revoke: the workspace's admins only, whoever made the invite
    if (body.as_admin === true) require(`${__hooks}/lib/roles.js`).requireAdmin(e.app, user.id);
    e.app.runInTransaction((txApp) => {
      const invite = requireInvite(txApp, inviteId);
      if (!mayRevoke(txApp, invite, user.id)) throw forbidden("Only the invite's creator or an admin can revoke it.");
      if (!invite.getDateTime("revoked_at").isZero()) return; // revoking again changes nothing
      invite.set("revoked_at", new DateTime());
      invite.set("revoked_by", user.id);
      txApp.save(invite);
      append(txApp, e, { actor: user.id, action: "invite.revoked", target: invite.id, details: { channel: invite.getString("channel") } });
    });
    return e.json(200, { ok: true });
  },
  $apis.bodyLimit(4 * 1024),
);
