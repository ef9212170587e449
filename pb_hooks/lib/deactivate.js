// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Deactivating and reactivating an account (docs/decisions/0056-deactivation.md). Everything happens
// in the caller's transaction, with its audit entries (account.deactivated, sessions.revoked, and
// member.removed for each conversation):
//   deactivate  profiles.deactivated = true; a new token key for the account (PocketBase refuses every
//               token it had, pocketbase/devices.go ends every session and the relay closes its live
//               streams); every membership removed (classic channels, sealed channels, direct
//               conversations: the keyring entries go with them, keyring.pb.js); the devices' unused
//               MLS key packages deleted, so nobody adds them to a group again; the invite links they
//               made revoked (invite.revoked each), so nobody joins by a leaver's link. Sign-in is
//               refused from then on (pocketbase/deactivated.go).
//   reactivate  profiles.deactivated = false: the account signs in again, with no memberships (and
//               none of its old invites). A single sign-on link the provider had refused is usable
//               again: the administrator's decision stands over the provider's earlier one (ADR 0064);
//               its next sign-in with the provider sets a new refresh token, which the minute check
//               then follows as before.
// Who may: an administrator (owner or admin), never on themselves nor (deactivating) on the owner; an
// admin only by the owner.

const { badRequest, forbidden, notFound } = require(`${__hooks}/lib/errors.js`);
const { roleOf, requireAdmin } = require(`${__hooks}/lib/roles.js`);
const { append } = require(`${__hooks}/lib/audit.js`);
const { signOutEverywhere } = require(`${__hooks}/lib/admin_console.js`);

/**
 * The person's profile when the caller may change their status; a 4xx otherwise.
 * @param {core.App} app
 * @param {string} callerId
 * @param {string} userId
 * @param {string} verb  "deactivate" or "reactivate", for the messages
 */
function checkTarget(app, callerId, userId, verb) {
  const callerRole = requireAdmin(app, callerId);
  if (userId === callerId) throw badRequest(`You cannot ${verb} your own account.`);
  const role = roleOf(app, userId);
  if (!role) throw notFound("No such person.");
  // (an owner is never deactivated; one deactivated before that held, by the identity provider, comes back)
  if (role === "owner" && verb === "deactivate") throw forbidden("The owner's account cannot be deactivated.");
  if (role === "admin" && callerRole !== "owner") throw forbidden(`Only the owner can ${verb} an administrator.`);
  return app.findRecordById("profiles", userId);
}

/**
 * Deactivates the account; answers the conversations it was removed from.
 * @param {core.App} txApp
 * @param {core.RequestEvent} e
 * @param {string} callerId
 * @param {string} userId
 * @returns {{ user_id: string, channels: string[], already?: boolean }}
 */
function deactivate(txApp, e, callerId, userId) {
  checkTarget(txApp, callerId, userId, "deactivate");
  return deactivateAccount(txApp, e, callerId, userId, "account.deactivated");
}

/**
 * The deactivation itself, whoever decided it: an administrator (`actor` their id, "account.deactivated")
 * or the identity provider (sso_leavers.js: no actor, "account.deactivated_by_provider").
 * @param {core.App} txApp
 * @param {core.RequestEvent | undefined} e
 * @param {string} actor
 * @param {string} userId
 * @param {string} action the audit entry's action
 * @returns {{ user_id: string, channels: string[], already?: boolean }}
 */
function deactivateAccount(txApp, e, actor, userId, action) {
  const profile = txApp.findRecordById("profiles", userId);
  // (done already, by another administrator meanwhile or a retry: nothing again, and the answer says so)
  if (profile.getBool("deactivated")) return { user_id: userId, channels: [], already: true };
  // first the status, so the membership events below already see a deactivated account
  profile.set("deactivated", true);
  txApp.save(profile);
  const memberships = txApp.findRecordsByFilter("channel_members", "user = {:user}", "", 0, 0, { user: userId });
  const channels = memberships.map((m) => m.getString("channel"));
  for (const membership of memberships) txApp.delete(membership);
  for (const pkg of txApp.findRecordsByFilter("mls_key_packages", "user = {:user}", "", 0, 0, { user: userId })) txApp.delete(pkg);
  const invites = revokeInvitesOf(txApp, userId, actor);
  const sessions = signOutEverywhere(txApp, userId);
  // each step its entry: the deactivation, the sessions it ended, each conversation it removed them from
  append(txApp, e, { actor, action, target: userId, details: { channels: channels.length } });
  append(txApp, e, {
    actor,
    action: "sessions.revoked",
    target: userId,
    details: { sessions, by_admin: actor !== "", deactivated: true },
  });
  for (const channel of channels) {
    append(txApp, e, { actor, action: "member.removed", target: userId, details: { channel, deactivated: true } });
  }
  for (const invite of invites) {
    append(txApp, e, {
      actor,
      action: "invite.revoked",
      target: invite.id,
      details: { channel: invite.getString("channel"), deactivated: true },
    });
  }
  return { user_id: userId, channels };
}

/**
 * Revokes the invites the person made that are not revoked yet; answers them.
 * @param {core.App} txApp
 * @param {string} userId
 * @param {string} actor  who revokes them ("" for the identity provider)
 */
function revokeInvitesOf(txApp, userId, actor) {
  const invites = txApp.findRecordsByFilter("invites", "created_by = {:user} && revoked_at = ''", "", 0, 0, { user: userId });
  for (const invite of invites) {
    invite.set("revoked_at", new DateTime());
    invite.set("revoked_by", actor);
    txApp.save(invite);
  }
  return invites;
}

/**
 * Reactivates the account: it signs in again, a member of nothing.
 * @param {core.App} txApp
 * @param {core.RequestEvent} e
 * @param {string} callerId
 * @param {string} userId
 */
function reactivate(txApp, e, callerId, userId) {
  const profile = checkTarget(txApp, callerId, userId, "reactivate");
  if (!profile.getBool("deactivated")) return { user_id: userId, already: true };
  profile.set("deactivated", false);
  txApp.save(profile);
  for (const link of txApp.findRecordsByFilter("sso_links", "user = {:user} && gone != ''", "", 0, 0, { user: userId })) {
    link.set("gone", "");
    txApp.save(link);
  }
  append(txApp, e, { actor: callerId, action: "account.reactivated", target: userId });
  return { user_id: userId };
}

module.exports = { deactivate, deactivateAccount, reactivate };
