// @ts-check
/// <reference path="../types/hooks.d.ts" />

// GET /api/chat/people (signed in)
//
// The people the caller shares a channel or conversation with: the "New message" picker's suggestions
// (never a list of all users). Someone who blocked the caller is left out, as their look-up answers
// nobody (ADR 0052): suggesting them would only lead to "User not found". At most 500, one query.
//
// Answer: {"ids": ["<user id>", ...]}
routerAdd("GET", "/api/chat/people", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const user = requireUser(e, "Not authenticated");
  const rows = arrayOf(new DynamicModel({ user: "" }));
  e.app
    .db()
    .newQuery(
      "SELECT DISTINCT other.user AS user FROM channel_members mine " +
        "JOIN channel_members other ON other.channel = mine.channel " +
        "WHERE mine.user = {:user} AND other.user != {:user} " +
        "AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.user = other.user AND b.blocked = {:user}) " +
        "LIMIT 500",
    )
    .bind({ user: user.id })
    .all(rows);
  return e.json(200, { ids: rows.map((/** @type {any} */ row) => row.user) });
});
