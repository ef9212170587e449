// @ts-check
/// <reference path="../types/hooks.d.ts" />

// GET /api/chat/unread (signed in)
//
// For each of the caller's channels with unread messages: how many messages of others arrived after
// the caller's read position there (or after they joined, when they have none). Edits and reactions
// do not count. One query for all channels.
//
// Answer: {"unread": [{"channelId": "<uuid>", "count": 3, "since": "<created of the read position>",
//           "newest": "<created of the newest message counted>"}]}
// (`newest` lets the page tell whether a message it received live while the answer was on its way
// was counted in it.)
routerAdd("GET", "/api/chat/unread", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const user = requireUser(e, "Not authenticated");

  const rows = arrayOf(new DynamicModel({ channel: "", unread: 0, since: "", newest: "" }));
  e.app
    .db()
    .newQuery(
      "SELECT m.channel AS channel, COUNT(*) AS unread, COALESCE(rp.last_read, cm.created) AS since, MAX(m.created) AS newest " +
        "FROM channel_members cm " +
        "JOIN messages m ON m.channel = cm.channel " +
        "LEFT JOIN read_positions rp ON rp.channel = cm.channel AND rp.user = cm.user " +
        "WHERE cm.user = {:user} AND m.kind = '' AND m.sender != {:user} AND m.created > COALESCE(rp.last_read, cm.created) " +
        "GROUP BY m.channel",
    )
    .bind({ user: user.id })
    .all(rows);

  return e.json(200, {
    unread: rows.map((/** @type {any} */ row) => ({ channelId: row.channel, count: row.unread, since: row.since, newest: row.newest })),
  });
});
