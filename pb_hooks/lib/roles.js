// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Workspace roles (docs/decisions/0053-roles.md), kept on each account's profile:
//   owner   the first account, or one the superuser names; manages admins
//   admin   manages people and invites
//   member  the specification's user: creates and joins channels, starts DMs
//   guest   sees and joins only the channels they are invited to; no new channels; DMs only with
//           people they share a channel with
// Roles only add to the specification's behaviour: a member can do everything a user could before.

const { forbidden } = require(`${__hooks}/lib/errors.js`);

const ROLES = ["owner", "admin", "member", "guest"];
const NOT_ALLOWED = "Only an administrator can do this.";

/**
 * The role of an account ("member" for a profile written before roles existed; "" for no such account).
 * @param {core.App} app
 * @param {string} userId
 * @returns {string}
 */
function roleOf(app, userId) {
  try {
    return app.findRecordById("profiles", userId).getString("role") || "member";
  } catch (_) {
    return "";
  }
}

/** @param {string} role */
function isAdminRole(role) {
  return role === "owner" || role === "admin";
}

/**
 * The caller's role when it is owner or admin; a 403 otherwise.
 * @param {core.App} app
 * @param {string} userId
 * @param {string} [message]
 */
function requireAdmin(app, userId, message) {
  const role = roleOf(app, userId);
  if (!isAdminRole(role)) throw forbidden(message || NOT_ALLOWED);
  return role;
}

/**
 * The role a new account gets: the very first account owns the workspace, everyone after is a member.
 * @param {core.App} txApp
 */
function roleForNewAccount(txApp) {
  // a deleted first account does not hand the workspace to whoever signs up next
  const earlier = txApp.countRecords("profiles") + txApp.countRecords("deleted_accounts");
  return earlier === 0 ? "owner" : "member";
}

module.exports = { ROLES, NOT_ALLOWED, roleOf, isAdminRole, requireAdmin, roleForNewAccount };
