// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The message archive (docs/decisions/0048-message-archive.md, pb_migrations/1795366700_message_archive.js).
//
// POST /api/chat/archive  {channel_id, entries: [{message_id, data}], for?}   at most 100 entries
//   Keeps, for the caller, what one of their devices read or sent in a sealed channel or direct
//   conversation: `data` is AES-GCM ciphertext (base64url) under the caller's own vault key, which the
//   server cannot open. The caller must be a member. An entry the caller already has is left as it is
//   (every device of the user sends what it read), and one whose message is not the conversation's (or
//   was deleted meanwhile) is skipped. Answers {stored: n} (the entries new to the archive).
//   With `for` (a user id): the caller's own messages of a direct conversation, kept for another of its
//   members (ADR 0099), sealed to that member's public key; entries for messages the caller did not send
//   are skipped, and the member's own entry of a message, or an earlier one, stays.
// The owner reads their entries with the collection's list API (owner-only rule).
//
// Errors: 400 malformed input, 401 not signed in, 403 not a member (the caller, or `for`), 404 channel
//         not found, 409 a classic channel (it needs no archive: its messages open with the channel key)
//         or, with `for`, not a direct conversation.

routerAdd(
  "POST",
  "/api/chat/archive",
  (e) => {
    const { badRequest, conflict, forbidden, invalidRecord } = require(`${__hooks}/lib/errors.js`);
    const { requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const { checkChannelId, findMembership, requireChannel } = require(`${__hooks}/lib/channels.js`);
    const { requireMember } = require(`${__hooks}/lib/mls.js`);
    // (inside the handler: PocketBase runs each handler on its own, without this file's top level)
    const MAX_ENTRIES = 100;
    const MAX_DATA = 140000;
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const channelId = checkChannelId(body.channel_id);
    const forId = body.for === undefined ? "" : body.for;
    if (typeof forId !== "string" || (forId !== "" && !/^[a-z0-9]{15}$/.test(forId))) throw badRequest("for must be a user id.");
    if (forId === user.id) throw badRequest("for must be another member.");
    const entries = body.entries;
    if (!Array.isArray(entries) || entries.length === 0 || entries.length > MAX_ENTRIES)
      throw badRequest(`entries must be a list of 1 to ${MAX_ENTRIES} entries.`);
    const checked = entries.map((entry) => {
      if (!entry || typeof entry !== "object" || Array.isArray(entry)) throw badRequest("Each entry must be an object {message_id, data}.");
      const messageId = matching(entry, "message_id", /^[a-z0-9]{15}$/, "message_id must be a message id.");
      const data = matching(entry, "data", /^[A-Za-z0-9_-]+$/, "data must be ciphertext in base64url.");
      if (data.length > MAX_DATA) throw badRequest("data is too large.");
      return { messageId, data };
    });
    let stored = 0;
    e.app.runInTransaction((txApp) => {
      const channel = requireChannel(txApp, channelId);
      requireMember(txApp, channelId, user.id);
      if (!channel.getBool("sealed")) throw conflict("Only sealed channels and direct conversations have an archive.");
      if (forId) {
        if (!channel.getBool("direct")) throw conflict("Messages are kept for the other members of direct conversations only.");
        if (!findMembership(txApp, channelId, forId)) throw forbidden("That person is not a member of this conversation.");
      }
      const owner = forId || user.id;
      const mine = forId ? { sender: user.id } : {};
      const collection = txApp.findCollectionByNameOrId("message_archive");
      for (const { messageId, data } of checked) {
        if (txApp.countRecords("messages", $dbx.hashExp({ id: messageId, channel: channelId, ...mine })) === 0) continue;
        if (txApp.countRecords("message_archive", $dbx.hashExp({ owner, message: messageId })) > 0) continue;
        const record = new Record(collection);
        record.set("owner", owner);
        record.set("gift", forId !== "");
        record.set("channel", channelId);
        record.set("message", messageId);
        record.set("data", data);
        try {
          txApp.save(record);
        } catch (err) {
          throw invalidRecord(err, "The archive could not be saved.");
        }
        stored += 1;
      }
    });
    return e.json(200, { stored });
  },
  $apis.bodyLimit(2 * 1024 * 1024),
);
