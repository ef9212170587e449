// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Leavers follow the identity provider (docs/decisions/0064-leavers-follow-the-provider.md). Each
// account that signed in with the provider keeps the provider's last refresh token (sso_links); we
// spend it, for a new one, every minute (sso.pb.js's cron) and whenever the account's session is
// refreshed. When the provider refuses it (invalid_grant: the account was disabled or deleted there,
// or its sessions were ended), the account is deactivated exactly as an administrator's deactivation
// does (lib/deactivate.js), with "account.deactivated_by_provider" in the audit log. A provider that
// cannot be reached decides nothing, nor does a refusal of the workspace's own settings: a wrong
// client secret (invalid_client), or a token kept from another client than the one in force. The
// owner is never deactivated, by the provider either (keepOwner).

const { readSso } = require(`${__hooks}/lib/sso_settings.js`);

const LOCK = "chat.sso-check ";

/**
 * Asks the provider about one link; answers "ok", "gone" (now deactivated) or "unknown".
 * @param {core.App} app
 * @param {core.Record} link
 * @param {core.RequestEvent} [e]
 */
function checkLink(app, link, e) {
  if (link.getString("gone") !== "") return "gone";
  const token = link.getString("refresh_token");
  const s = readSso(app);
  if (!s.enabled || token === "" || link.getString("issuer") !== normalIssuer(s.issuer, link.getString("issuer"))) return "unknown";
  // a token of another client (the workspace moved to a new one) is refused for that alone
  const client = link.getString("client_id");
  if (client !== "" && client !== s.clientId) return "unknown";
  // one check at a time per account: the provider replaces the refresh token at each use, and a second
  // use of the old one would read as "gone"
  const me = $security.randomString(16);
  if (app.store().getOrSet(LOCK + link.id, () => me) !== me) return "unknown";
  try {
    const answer = $sso.refresh(s, token);
    if (answer.status === "ok") {
      const fresh = app.findRecordById("sso_links", link.id);
      fresh.set("refresh_token", answer.refreshToken);
      fresh.set("client_id", s.clientId);
      fresh.set("checked", new Date().toISOString());
      app.save(fresh);
      return "ok";
    }
    if (answer.status !== "gone") {
      app.logger().warn("single sign-on: the provider could not be asked about an account", "error", answer.error || "");
      return "unknown";
    }
    const userId = link.getString("user");
    if (require(`${__hooks}/lib/roles.js`).roleOf(app, userId) === "owner") {
      keepOwner(app, link, e);
      return "unknown";
    }
    app.runInTransaction((txApp) => {
      const fresh = txApp.findRecordById("sso_links", link.id);
      fresh.set("gone", new Date().toISOString());
      fresh.set("refresh_token", "");
      txApp.save(fresh);
      require(`${__hooks}/lib/deactivate.js`).deactivateAccount(txApp, e, "", userId, "account.deactivated_by_provider");
    });
    return "gone";
  } finally {
    app.store().remove(LOCK + link.id);
  }
}

/**
 * The provider refused the owner's token: the owner is never deactivated (ADR 0056), the way back
 * when the provider is wrong. The token is dropped (the minute check stops asking) and the audit log
 * says so, once; the owner's next sign-in with the provider keeps a new one, if the provider lets
 * them in.
 * @param {core.App} app
 * @param {core.Record} link
 * @param {core.RequestEvent} [e]
 */
function keepOwner(app, link, e) {
  app.runInTransaction((txApp) => {
    const fresh = txApp.findRecordById("sso_links", link.id);
    fresh.set("refresh_token", "");
    txApp.save(fresh);
    const { append } = require(`${__hooks}/lib/audit.js`);
    append(txApp, e, { actor: "", action: "account.provider_refused_owner", target: link.getString("user") });
  });
  app.logger().warn("single sign-on: the provider refused the owner's token; the owner stays active", "user", link.getString("user"));
}

/**
 * The link's issuer when the configured one is the same provider (a trailing "/" aside).
 * @param {string} configured
 * @param {string} linked
 */
function normalIssuer(configured, linked) {
  return configured.replace(/\/+$/, "") === linked.replace(/\/+$/, "") ? linked : configured;
}

/** Every linked account still there, one after the other. @param {core.App} app */
function checkAll(app) {
  if (!readSso(app).enabled) return;
  const links = app.findRecordsByFilter("sso_links", "gone = '' && refresh_token != ''", "checked", 0, 0);
  for (const link of links) {
    try {
      checkLink(app, link);
    } catch (err) {
      app.logger().warn("single sign-on: checking an account failed", "error", String(err));
    }
  }
}

/**
 * The account's link, if it signed in with the provider.
 * @param {core.App} app
 * @param {string} userId
 */
function linkOfUser(app, userId) {
  try {
    return app.findFirstRecordByFilter("sso_links", "user = {:user}", { user: userId });
  } catch (_) {
    return null;
  }
}

module.exports = { checkLink, checkAll, linkOfUser };
