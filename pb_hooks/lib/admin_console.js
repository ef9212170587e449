// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// What the admin console reads and changes (docs/decisions/0055-admin-console.md). Every function here
// runs after requireAdmin; what one administrator may do to another account is decided here, once:
//   an admin manages members and guests; only an owner names or removes admins and names owners;
//   the last owner who can sign in keeps the role, and a deactivated account is not named owner.
// The console sees usernames, email addresses, roles, counts and sizes: never message content, channel
// passwords or the names of sealed channels and direct conversations.

const { badRequest, forbidden, notFound, conflict } = require(`${__hooks}/lib/errors.js`);
const { ROLES, roleOf, isAdminRole } = require(`${__hooks}/lib/roles.js`);

const OWNER_ONLY = "Only the owner can name or remove administrators.";
const OWNER_SIGNS_OUT = "Only the owner can sign out an administrator or the owner.";
const OWNER_ISSUES_CODES = "Only the owner can issue a reset code for an administrator or the owner.";
const LAST_OWNER = "The workspace must keep an owner: name another owner before changing this one's role.";
const DEACTIVATED_OWNER = "A deactivated account cannot be named owner: reactivate it first.";
const NO_SUCH_PERSON = "No such person.";
const ROLE_CHANGED = "This person's role changed meanwhile: they are now";
/** @param {string} role */
const roleWords = (role) => ({ owner: "Owner", admin: "Admin", member: "Member", guest: "Guest" })[role] || role;
const MAX_LISTED = 200;

/**
 * The role of the account an administrator acts on; 404 for no such account, 403 when the caller's
 * role does not reach it (an admin acting on an admin or the owner), with `refusal`: what only the owner may do.
 * @param {core.App} app
 * @param {string} callerRole
 * @param {string} targetId
 * @param {string} [refusal]
 */
function requireManageable(app, callerRole, targetId, refusal = OWNER_ONLY) {
  const targetRole = roleOf(app, targetId);
  if (!targetRole) throw notFound(NO_SUCH_PERSON);
  if (callerRole !== "owner" && isAdminRole(targetRole)) throw forbidden(refusal);
  return targetRole;
}

/**
 * Gives `targetId` the role `role`; answers the role it had (the same when nothing changed). With
 * `from`, the role the caller's console showed: a 409 when it is not theirs any more.
 * @param {core.App} txApp
 * @param {string} callerRole
 * @param {string} targetId
 * @param {unknown} role
 * @param {unknown} [from]
 */
function changeRole(txApp, callerRole, targetId, role, from) {
  if (typeof role !== "string" || ROLES.indexOf(role) < 0) throw badRequest("role must be owner, admin, member or guest.");
  if (from !== undefined && (typeof from !== "string" || ROLES.indexOf(from) < 0)) {
    throw badRequest("from must be owner, admin, member or guest.");
  }
  const before = requireManageable(txApp, callerRole, targetId);
  // (changed by another administrator since the caller's console read it: nobody is told it worked twice;
  // changed to the very role asked for, nothing is left to do)
  if (from !== undefined && before !== from && before !== role)
    throw conflict(`${ROLE_CHANGED} ${roleWords(before)}. Look again before changing it.`);
  if (callerRole !== "owner" && isAdminRole(role)) throw forbidden(OWNER_ONLY);
  if (before === role) return before;
  const profile = txApp.findRecordById("profiles", targetId);
  // (a deactivated owner would keep the workspace no owner who can sign in)
  if (role === "owner" && profile.getBool("deactivated")) throw conflict(DEACTIVATED_OWNER);
  if (before === "owner" && !profile.getBool("deactivated") && ownerCount(txApp) <= 1) throw conflict(LAST_OWNER);
  profile.set("role", role);
  txApp.save(profile);
  return before;
}

/**
 * How many owners can sign in: active accounts with the role (the console offers no role change to the last one).
 * @param {core.App} app
 */
function ownerCount(app) {
  return app.countRecords("profiles", $dbx.hashExp({ role: "owner", deactivated: false }));
}

/**
 * Ends every session of an account: a new token key voids all its tokens, and pocketbase/devices.go
 * revokes each recorded session (their live streams close); each revoked token is marked as an
 * administrator's doing, so the person's pages say so (pocketbase/admin_signout.go). Answers how many
 * were signed in.
 * @param {core.App} txApp
 * @param {string} targetId
 */
function signOutEverywhere(txApp, targetId) {
  const now = new Date().toISOString().replace("T", " ");
  const sessions = txApp.countRecords("sessions", $dbx.exp("user = {:user} AND expires > {:now}", { user: targetId, now: now }));
  const hashes = txApp.findAllRecords("sessions", $dbx.hashExp({ user: targetId })).map((row) => row.getString("token_hash"));
  const user = txApp.findRecordById("users", targetId);
  user.refreshTokenKey();
  txApp.save(user);
  for (const hash of hashes) {
    // (a session revoked on its own before without its row gone is not marked: nothing to say to it)
    let revoked = null;
    try {
      revoked = txApp.findFirstRecordByData("revoked_tokens", "token_hash", hash);
    } catch (_) {
      continue;
    }
    revoked.set("by_admin", true);
    txApp.save(revoked);
  }
  return sessions;
}

/** @param {string} text */
const likePattern = (text) => "%" + text.toLowerCase().replace(/[\\%_]/g, (c) => "\\" + c) + "%";

/**
 * People whose username or email contains `query` (everyone when it is empty), by username: the first
 * MAX_LISTED, and whether there are more (the console says so).
 * @param {core.App} app
 * @param {string} query
 */
function listPeople(app, query) {
  const now = new Date().toISOString().replace("T", " ");
  const rows = arrayOf(
    new DynamicModel({
      id: "",
      email: "",
      pending_email: "",
      username: "",
      role: "",
      deactivated: false,
      last_seen: "",
      devices: 0,
      channels: 0,
      sso: false,
    }),
  );
  app
    .db()
    .newQuery(
      "SELECT u.id AS id, u.email AS email, COALESCE(u.pending_email, '') AS pending_email, COALESCE(p.username, '') AS username, COALESCE(p.role, '') AS role, " +
        "COALESCE(p.deactivated, FALSE) AS deactivated, " +
        // (a session's last activity stays on the account once the session ends: pocketbase/last_seen.go)
        "MAX(COALESCE((SELECT MAX(s.last_seen) FROM sessions s WHERE s.user = u.id), ''), COALESCE(u.last_seen, '')) AS last_seen, " +
        "(SELECT COUNT(*) FROM sessions s WHERE s.user = u.id AND s.expires > {:now}) AS devices, " +
        "(SELECT COUNT(*) FROM channel_members m JOIN channels c ON c.id = m.channel WHERE m.user = u.id " +
        "AND (c.direct = FALSE OR c.direct IS NULL)) AS channels, " +
        "EXISTS(SELECT 1 FROM sso_links l WHERE l.user = u.id) AS sso " +
        "FROM users u LEFT JOIN profiles p ON p.id = u.id " +
        "WHERE {:q} = '%%' OR LOWER(COALESCE(p.username, '')) LIKE {:q} ESCAPE '\\' OR LOWER(u.email) LIKE {:q} ESCAPE '\\' " +
        "OR (u.email = '' AND LOWER(COALESCE(u.pending_email, '')) LIKE {:q} ESCAPE '\\') " +
        "ORDER BY LOWER(COALESCE(p.username, '')), u.id LIMIT " +
        (MAX_LISTED + 1),
    )
    .bind({ q: likePattern(query), now: now })
    .all(rows);
  const people = rows.slice(0, MAX_LISTED).map((r) => ({
    id: r.id,
    // an address not yet attached (its sign-up link unopened: ADR 82) is shown as such
    email: r.email || r.pending_email,
    emailPending: !r.email && Boolean(r.pending_email),
    username: r.username,
    role: r.role || "member",
    deactivated: Boolean(r.deactivated),
    lastSeen: r.last_seen ? String(r.last_seen).replace(" ", "T") : "",
    devices: r.devices,
    channels: r.channels,
    // signs in with single sign-on (created through it, or a password account linked to it)
    sso: Boolean(r.sso),
  }));
  return { people, more: rows.length > MAX_LISTED };
}

/**
 * Every channel and conversation with its member count and storage (bytes of encrypted messages and
 * attachments); a name only for classic channels (sealed channels' and conversations' are not ours).
 * @param {core.App} app
 */
function listChannels(app) {
  const rows = arrayOf(new DynamicModel({ id: "", name: "", sealed: false, direct: false, members: 0, messages: 0, files: 0 }));
  app
    .db()
    .newQuery(
      "SELECT c.id AS id, c.name AS name, COALESCE(c.sealed, FALSE) AS sealed, COALESCE(c.direct, FALSE) AS direct, " +
        "(SELECT COUNT(*) FROM channel_members m WHERE m.channel = c.id) AS members, " +
        "(SELECT COALESCE(SUM(LENGTH(encrypted_content)), 0) FROM messages WHERE channel = c.id) AS messages, " +
        "(SELECT COALESCE(SUM(file_size), 0) FROM file_attachments WHERE channel = c.id) AS files " +
        "FROM channels c ORDER BY c.created, c.id LIMIT 1000",
    )
    .all(rows);
  return rows.map((r) => ({
    id: r.id,
    kind: r.direct ? "direct" : r.sealed ? "sealed" : "channel",
    name: r.direct || r.sealed ? "" : r.name,
    members: r.members,
    bytes: r.messages + r.files,
  }));
}

module.exports = {
  OWNER_ONLY,
  OWNER_SIGNS_OUT,
  OWNER_ISSUES_CODES,
  LAST_OWNER,
  NO_SUCH_PERSON,
  requireManageable,
  changeRole,
  ownerCount,
  signOutEverywhere,
  listPeople,
  listChannels,
};
