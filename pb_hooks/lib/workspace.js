// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// What roles limit outside the console (docs/decisions/0055-admin-console.md): who creates channels
// (guests never; members unless the workspace says "Admins only") and whom a guest may start a direct
// conversation with (people they share a channel with). Roles only add: with the defaults a member can
// do everything the specification gives a user.

const { forbidden } = require(`${__hooks}/lib/errors.js`);
const { roleOf, isAdminRole } = require(`${__hooks}/lib/roles.js`);

const SETTINGS_ID = "workspace000001";
const WHO_CAN_CREATE = ["everyone", "admins"];
const GUESTS_CANNOT_CREATE = "Guests cannot create channels.";
const ADMINS_ONLY = "Only administrators can create channels here.";
const GUESTS_MESSAGE_SHARED = "Guests can message only people they share a channel with.";

/**
 * The workspace's settings row (the defaults when it is missing).
 * @param {core.App} app
 * @returns {{ whoCanCreateChannels: string }}
 */
function readSettings(app) {
  try {
    const row = app.findRecordById("workspace_settings", SETTINGS_ID);
    return { whoCanCreateChannels: row.getString("who_can_create_channels") || "everyone" };
  } catch (_) {
    return { whoCanCreateChannels: "everyone" };
  }
}

/**
 * The workspace's one settings row, for a change inside `txApp`'s transaction: a new one (with the
 * defaults) when none was saved yet.
 * @param {core.App} txApp
 * @returns {core.Record}
 */
function settingsRow(txApp) {
  try {
    return txApp.findRecordById("workspace_settings", SETTINGS_ID);
  } catch (_) {
    const row = new Record(txApp.findCollectionByNameOrId("workspace_settings"));
    row.set("id", SETTINGS_ID);
    row.set("who_can_create_channels", "everyone");
    return row;
  }
}

/**
 * Changes who may create channels; answers the value it had before.
 * @param {core.App} txApp
 * @param {string} value one of WHO_CAN_CREATE
 */
function writeWhoCanCreate(txApp, value) {
  const row = settingsRow(txApp);
  const before = row.getString("who_can_create_channels") || "everyone";
  row.set("who_can_create_channels", value);
  txApp.save(row);
  return before;
}

/**
 * A 403 unless this account may create a channel now.
 * @param {core.App} app
 * @param {string} userId
 */
function requireCanCreateChannel(app, userId) {
  const role = roleOf(app, userId);
  if (role === "guest") throw forbidden(GUESTS_CANNOT_CREATE);
  if (!isAdminRole(role) && readSettings(app).whoCanCreateChannels === "admins") throw forbidden(ADMINS_ONLY);
}

/**
 * A 403 when a guest names someone they share no channel with (direct conversations do not count).
 * @param {core.App} app
 * @param {string} userId
 * @param {string[]} others
 */
function requireMayMessage(app, userId, others) {
  if (roleOf(app, userId) !== "guest") return;
  for (const other of others) {
    const shared = new DynamicModel({ n: 0 });
    app
      .db()
      .newQuery(
        "SELECT COUNT(*) AS n FROM channel_members a JOIN channel_members b ON b.channel = a.channel " +
          "JOIN channels c ON c.id = a.channel WHERE a.user = {:me} AND b.user = {:other} AND (c.direct = FALSE OR c.direct IS NULL)",
      )
      .bind({ me: userId, other: other })
      .one(shared);
    if (shared.n === 0) throw forbidden(GUESTS_MESSAGE_SHARED);
  }
}

module.exports = {
  settingsRow,
  SETTINGS_ID,
  WHO_CAN_CREATE,
  GUESTS_CANNOT_CREATE,
  ADMINS_ONLY,
  GUESTS_MESSAGE_SHARED,
  readSettings,
  writeWhoCanCreate,
  requireCanCreateChannel,
  requireMayMessage,
};
