// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Resetting a sealed channel's or direct conversation's encryption (pb_hooks/lib/mls_reset.js, ADR 0049).
//
// POST /api/chat/mls/reset   {channel_id, group_info}   the creator's new group replaces the current one
//                            (epoch 0; the old group's commits, Welcomes and key-package claims go) → {epoch, generation, reset_by, reset_at}
//
// Errors: 400 malformed input, 401 not signed in, 403 not the creator, 404 channel or group not found.

routerAdd(
  "POST",
  "/api/chat/mls/reset",
  (e) => {
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { checkChannelId, requireChannel } = require(`${__hooks}/lib/channels.js`);
    const { mlsData } = require(`${__hooks}/lib/mls.js`);
    const { replaceGroup } = require(`${__hooks}/lib/mls_reset.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const channelId = checkChannelId(body.channel_id);
    const groupInfo = mlsData(body, "group_info", 2000000);
    /** @type {{ generation: number, reset_by: string, reset_at: string } | null} */
    let mark = null;
    e.app.runInTransaction((txApp) => {
      mark = replaceGroup(txApp, { channel: requireChannel(txApp, channelId), userId: user.id, groupInfo });
    });
    return e.json(200, { epoch: 0, ...(mark || {}) });
  },
  $apis.bodyLimit(2100 * 1024),
);
