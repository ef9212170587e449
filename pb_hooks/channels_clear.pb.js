// @ts-check
/// <reference path="../types/hooks.d.ts" />

// POST /api/chat/channels/{id}/clear (the channel's creator)
//
// Deletes every message of the channel in one transaction; their attachments and link previews
// go with them (cascade). No body is needed; if one is sent it must be a JSON object.
//
// Answer: {"deleted": <number of messages>}
// Errors: 400 "Channel ID must be a UUID.", 404 "Channel not found" (also for non-members),
//         403 "Only the channel creator can clear messages", 401 "User not authenticated"
routerAdd(
  "POST",
  "/api/chat/channels/{id}/clear",
  (e) => {
    const { forbidden, notFound } = require(`${__hooks}/lib/errors.js`);
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { CHANNEL_NOT_FOUND, checkChannelId, requireChannel, findMembership } = require(`${__hooks}/lib/channels.js`);

    const user = requireUser(e, "User not authenticated");
    const channelId = checkChannelId(e.request.pathValue("id"));
    readJsonObject(e);

    let deleted = 0;

    e.app.runInTransaction((txApp) => {
      const channel = requireChannel(txApp, channelId);
      if (!findMembership(txApp, channelId, user.id)) {
        throw notFound(CHANNEL_NOT_FOUND);
      }
      if (channel.getString("created_by") !== user.id) {
        throw forbidden("Only the channel creator can clear messages");
      }
      if (channel.getBool("direct")) throw forbidden("A direct conversation's messages cannot be cleared for everyone.");

      const messages = txApp.findRecordsByFilter("messages", "channel = {:channel}", "", 0, 0, { channel: channelId });
      for (const message of messages) {
        txApp.delete(message);
      }
      deleted = messages.length;
    });

    return e.json(200, { deleted: deleted });
  },
  $apis.bodyLimit(4 * 1024),
);
