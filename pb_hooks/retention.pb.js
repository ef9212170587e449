// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Retention (pb_hooks/lib/retention.js, docs/decisions/0065-retention.md).
//
// POST /api/chat/admin/retention {days, per_channel?, keep_pinned?}  the workspace's policy (owner and
//   admins; 0 days keeps messages forever)
// POST /api/chat/admin/retention/preview {days, keep_pinned?}  how many messages that period deletes now
//   (owner and admins: the console's "Keep messages for 30 days?" says it; nothing changes)
// POST /api/chat/channels/retention {channel_id, days}  a channel admin's shorter period (0: the
//   workspace's), when the workspace allows it
// POST /api/chat/channels/retention/preview {channel_id, days}  how many messages that channel's own
//   period deletes now (its admins: "Keep this channel's messages for 7 days?" says it)
// GET  /api/chat/retention (Go, pocketbase/retention.go) answers the policy and the days that apply to
//   each of the caller's conversations.
// Each change appends `settings.changed` in the same transaction. The sweep runs in Go (every 10
// minutes; POST /api/chat/retention/sweep runs it now for a superuser).

routerAdd(
  "POST",
  "/api/chat/admin/retention",
  (e) => {
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
    const { checkDays, checkFlag, writeRetention, readRetention } = require(`${__hooks}/lib/retention.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const caller = requireUser(e, "Not authenticated");
    requireAdmin(e.app, caller.id);
    const body = readJsonObject(e);
    const current = readRetention(e.app);
    const next = {
      days: checkDays(body.days),
      perChannel: checkFlag(body, "per_channel", current.perChannel),
      keepPinned: checkFlag(body, "keep_pinned", current.keepPinned),
    };
    e.app.runInTransaction((txApp) => {
      const before = writeRetention(txApp, next);
      /** @type {[string, unknown, unknown][]} */
      const changes = [
        ["retention_days", before.days, next.days],
        ["retention_per_channel", before.perChannel, next.perChannel],
        ["retention_keep_pinned", before.keepPinned, next.keepPinned],
      ];
      for (const [setting, from, to] of changes)
        if (from !== to)
          append(txApp, e, { actor: caller.id, action: "settings.changed", details: { setting: setting, from: from, to: to } });
    });
    return e.json(200, { days: next.days, per_channel: next.perChannel, keep_pinned: next.keepPinned });
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/admin/retention/preview",
  (e) => {
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
    const { checkDays, checkFlag, readRetention } = require(`${__hooks}/lib/retention.js`);
    const caller = requireUser(e, "Not authenticated");
    requireAdmin(e.app, caller.id);
    const body = readJsonObject(e);
    const days = checkDays(body.days);
    const keepPinned = checkFlag(body, "keep_pinned", readRetention(e.app).keepPinned);
    return e.json(200, { messages: days > 0 ? $retention.expiring(e.app, days, keepPinned) : 0 });
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/channels/retention",
  (e) => {
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { checkChannelId } = require(`${__hooks}/lib/channels.js`);
    const { requireManagedChannel } = require(`${__hooks}/lib/bans.js`);
    const { checkDays, readRetention, checkChannelDays } = require(`${__hooks}/lib/retention.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const caller = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const channelId = checkChannelId(body.channel_id);
    const days = checkDays(body.days);
    const workspace = readRetention(e.app);
    e.app.runInTransaction((txApp) => {
      const { channel } = requireManagedChannel(txApp, channelId, caller.id);
      checkChannelDays(workspace, days);
      const before = channel.getInt("retention_days");
      if (before === days) return;
      channel.set("retention_days", days);
      txApp.save(channel);
      append(txApp, e, {
        actor: caller.id,
        action: "settings.changed",
        target: channelId,
        details: { setting: "channel_retention_days", from: before, to: days },
      });
    });
    return e.json(200, { channel_days: days, workspace_days: workspace.days });
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/channels/retention/preview",
  (e) => {
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { checkChannelId } = require(`${__hooks}/lib/channels.js`);
    const { requireManagedChannel } = require(`${__hooks}/lib/bans.js`);
    const { checkDays, readRetention, checkChannelDays } = require(`${__hooks}/lib/retention.js`);
    const caller = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const channelId = checkChannelId(body.channel_id);
    const days = checkDays(body.days);
    requireManagedChannel(e.app, channelId, caller.id);
    checkChannelDays(readRetention(e.app), days);
    return e.json(200, { messages: $retention.expiringIn(e.app, channelId, days) });
  },
  $apis.bodyLimit(4 * 1024),
);
