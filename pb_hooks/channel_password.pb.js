// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Changing a classic channel's password (docs/decisions/0060-changing-the-channel-password.md;
// pb_hooks/lib/channel_password.js).
//
// GET  /api/chat/channels/password?channel_id=  a channel admin: {epoch, members: [user ids but the caller]}
// POST /api/chat/channels/password {channel_id, epoch, verifier, shares: [{user_id, data}]}
//   a channel admin: the new password's verifier, `epoch` the channel's next one, a share for every
//   other member -> {epoch, invites_revoked}. 409 for a sealed channel, or when the members or the
//   epoch changed since the GET.
// GET  /api/chat/channels/key-shares  the caller's shares: [{channel_id, from, epoch, data}]
// Leaving (or being removed from) a channel takes the member's share along.

routerAdd("GET", "/api/chat/channels/password", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { checkChannelId } = require(`${__hooks}/lib/channels.js`);
  const { requirePasswordChannel, otherMembers } = require(`${__hooks}/lib/channel_password.js`);
  const user = requireUser(e, "Not authenticated");
  const channel = requirePasswordChannel(e.app, checkChannelId(e.request.url.query().get("channel_id")), user.id);
  return e.json(200, { epoch: channel.getInt("key_epoch"), members: otherMembers(e.app, channel.id, user.id) });
});

routerAdd(
  "POST",
  "/api/chat/channels/password",
  (e) => {
    const { requireUser, readJsonObject, matching, wholeNumber, patterns } = require(`${__hooks}/lib/request.js`);
    const { checkChannelId, VERIFIER_MALFORMED } = require(`${__hooks}/lib/channels.js`);
    const { requirePasswordChannel, readShares, changePassword } = require(`${__hooks}/lib/channel_password.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const channelId = checkChannelId(body.channel_id);
    const verifier = matching(body, "verifier", patterns.verifier, VERIFIER_MALFORMED);
    const epoch = wholeNumber(body, "epoch");
    const shares = readShares(body);
    let revoked = 0;
    e.app.runInTransaction((txApp) => {
      const channel = requirePasswordChannel(txApp, channelId, user.id);
      revoked = changePassword(txApp, channel, user.id, { epoch, verifier, shares });
      append(txApp, e, {
        actor: user.id,
        action: "channel.password_changed",
        target: channelId,
        details: { epoch, members: shares.length, invites_revoked: revoked },
      });
    });
    return e.json(200, { epoch, invites_revoked: revoked });
  },
  $apis.bodyLimit(4 * 1024 * 1024),
);

routerAdd("GET", "/api/chat/channels/key-shares", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { sharesOf } = require(`${__hooks}/lib/channel_password.js`);
  const user = requireUser(e, "Not authenticated");
  return e.json(200, { shares: sharesOf(e.app, user.id) });
});

onRecordAfterDeleteSuccess((e) => {
  const membership = e.record;
  const shares = e.app.findRecordsByFilter("channel_key_shares", "user = {:user} && channel = {:channel}", "", 0, 0, {
    user: membership.getString("user"),
    channel: membership.getString("channel"),
  });
  for (const share of shares) e.app.delete(share);
  e.next();
}, "channel_members");
