// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Channel admins, removals that stick and lifting them (docs/decisions/0057-invites-and-bans.md;
// pb_hooks/lib/bans.js). Every route answers 403 "Only a channel admin can do this." to anyone else.
//
// POST /api/chat/channels/members/remove {channel_id, user_id}  removes the member and bans them (their
//   invites to the channel are revoked)
// POST /api/chat/channels/bans/lift {channel_id, user_id}       lets them join again
// POST /api/chat/channels/members/admin {channel_id, user_id, admin}  the creator or a workspace admin
//   names (or un-names) a member channel admin
// GET  /api/chat/channels/access?channel_id=  what the caller may manage: {manage, name_admins, admins,
//   bans, invites} ({manage: ""} for a member who may not; 404 outside the channel)

routerAdd(
  "POST",
  "/api/chat/channels/members/remove",
  (e) => {
    const { badRequest } = require(`${__hooks}/lib/errors.js`);
    const { requireManagedChannel, removeAndBan } = require(`${__hooks}/lib/bans.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const { user, channelId, userId } = require(`${__hooks}/lib/bans.js`).readTarget(e);
    if (userId === user.id) throw badRequest("Use Leave to leave a channel.");
    e.app.runInTransaction((txApp) => {
      const { channel } = requireManagedChannel(txApp, channelId, user.id);
      const invites = removeAndBan(txApp, channel, userId, user.id);
      append(txApp, e, { actor: user.id, action: "member.removed", target: userId, details: { channel: channelId } });
      for (const invite of invites) {
        append(txApp, e, { actor: user.id, action: "invite.revoked", target: invite.id, details: { channel: channelId, removed: true } });
      }
    });
    return e.json(200, { ok: true });
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/channels/bans/lift",
  (e) => {
    const { notFound } = require(`${__hooks}/lib/errors.js`);
    const { requireManagedChannel, findBan } = require(`${__hooks}/lib/bans.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const { user, channelId, userId } = require(`${__hooks}/lib/bans.js`).readTarget(e);
    e.app.runInTransaction((txApp) => {
      requireManagedChannel(txApp, channelId, user.id);
      const ban = findBan(txApp, channelId, userId);
      if (!ban) throw notFound("This person is not banned from the channel.");
      txApp.delete(ban);
      append(txApp, e, { actor: user.id, action: "ban.lifted", target: userId, details: { channel: channelId } });
    });
    return e.json(200, { ok: true });
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/channels/members/admin",
  (e) => {
    const { badRequest, forbidden, notFound } = require(`${__hooks}/lib/errors.js`);
    const { findMembership } = require(`${__hooks}/lib/channels.js`);
    const { requireManagedChannel } = require(`${__hooks}/lib/bans.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const { user, body, channelId, userId } = require(`${__hooks}/lib/bans.js`).readTarget(e);
    if (typeof body.admin !== "boolean") throw badRequest("admin must be true or false.");
    const admin = body.admin;
    e.app.runInTransaction((txApp) => {
      const { kind } = requireManagedChannel(txApp, channelId, user.id);
      if (kind === "admin") throw forbidden("Only the channel's creator or a workspace admin names channel admins.");
      const membership = findMembership(txApp, channelId, userId);
      if (!membership) throw notFound("Member not found");
      if (membership.getBool("admin") === admin) return;
      membership.set("admin", admin);
      txApp.save(membership);
      append(txApp, e, { actor: user.id, action: "channel_admin.changed", target: userId, details: { channel: channelId, admin } });
    });
    return e.json(200, { ok: true });
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd("GET", "/api/chat/channels/access", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { notFound } = require(`${__hooks}/lib/errors.js`);
  const { checkChannelId, requireChannel, findMembership, CHANNEL_NOT_FOUND } = require(`${__hooks}/lib/channels.js`);
  const { channelAdminKind, listBans } = require(`${__hooks}/lib/bans.js`);
  const { listInvites } = require(`${__hooks}/lib/invites.js`);
  const user = requireUser(e, "Not authenticated");
  const channelId = checkChannelId(e.request.url.query().get("channel_id"));
  const channel = requireChannel(e.app, channelId);
  const kind = channel.getBool("direct") ? "" : channelAdminKind(e.app, channel, user.id);
  // someone outside the channel does not learn it exists
  if (!kind && !findMembership(e.app, channelId, user.id)) throw notFound(CHANNEL_NOT_FOUND);
  if (!kind) return e.json(200, { manage: "" });
  const admins = e.app
    .findRecordsByFilter("channel_members", "channel = {:channel} && admin = true", "", 500, 0, { channel: channelId })
    .map((m) => m.getString("user"));
  return e.json(200, {
    manage: kind,
    name_admins: kind !== "admin",
    admins,
    bans: listBans(e.app, channelId),
    invites: listInvites(e.app, channelId),
  });
});
