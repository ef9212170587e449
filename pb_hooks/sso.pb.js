// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Single sign-on with the company's OpenID Connect provider (docs/decisions/0063-single-sign-on.md,
// lib/sso.js, lib/sso_settings.js, lib/sso_leavers.js).
//
// GET  /api/chat/sso                 (public) {enabled, name, required}
// POST /api/chat/sso/begin           (public) {redirect_url} -> {url, state}
// POST /api/chat/sso/finish          (public) {state, code} -> a session ({token, record}) for a known
//                                    provider account, else {signup: {ticket, email, username}}
//                                    or, when a password account has the email, {link: {ticket, email}}
// POST /api/chat/sso/signup          (public) {ticket, id, username, keys..., passphrase_later?} -> a session
// POST /api/chat/sso/link            (public) {ticket, login_secret} -> a session (lib/sso_link.js)
// POST /api/chat/sso/passphrase      (the new account) {ticket, keys...}: after a passkey set up the keys,
//                                    the keys wrapped under an encryption passphrase, once (lib/sso_passphrase.js)
// GET  /api/chat/admin/sso           (administrators) the settings, never the client secret
// POST /api/chat/admin/sso           (administrators; "required" the owner's only) changes -> the same
// Password sign-in is refused while single sign-on is required, except the owner's; a session refresh
// and a cron job every minute ask the provider whether each linked account still exists.
// Errors: 400 malformed input or an expired sign-in, 401/403 who may not, 403 a refused account,
// 404 single sign-on not set up, 409 an account or a link that exists already.

routerAdd("GET", "/api/chat/sso", (e) => e.json(200, require(`${__hooks}/lib/sso_settings.js`).publicSso(e.app)));

routerAdd(
  "POST",
  "/api/chat/sso/begin",
  (e) => {
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    return e.json(200, require(`${__hooks}/lib/sso.js`).begin(e.app, readJsonObject(e)));
  },
  $apis.bodyLimit(2048),
);

routerAdd(
  "POST",
  "/api/chat/sso/finish",
  (e) => {
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    const answer = require(`${__hooks}/lib/sso.js`).finish(e.app, readJsonObject(e));
    if (answer.signup) return e.json(200, { signup: answer.signup });
    if (answer.link) return e.json(200, { link: answer.link });
    return $apis.recordAuthResponse(e, /** @type {core.Record} */ (answer.user), "sso", null);
  },
  $apis.bodyLimit(8192),
);

routerAdd(
  "POST",
  "/api/chat/sso/signup",
  (e) => {
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    const body = readJsonObject(e);
    const user = require(`${__hooks}/lib/sso.js`).signUp(e.app, body);
    // keys wrapped under a secret the browser forgot (a passkey set them up): a passphrase may follow, once
    if (body.passphrase_later === true) require(`${__hooks}/lib/sso_passphrase.js`).allowPassphrase(e.app, String(body.ticket), user.id);
    // the audit log records it as the account's creation (audit_events.pb.js)
    e.set("chatcrypt.signup", true);
    return $apis.recordAuthResponse(e, user, "sso", null);
  },
  $apis.bodyLimit(64 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/sso/link",
  (e) => {
    const { readJsonObject } = require(`${__hooks}/lib/request.js`);
    const user = require(`${__hooks}/lib/sso_link.js`).linkAccount(e.app, readJsonObject(e), e);
    return $apis.recordAuthResponse(e, user, "sso", null);
  },
  $apis.bodyLimit(8192),
);

routerAdd(
  "POST",
  "/api/chat/sso/passphrase",
  (e) => {
    const { readJsonObject, requireUser } = require(`${__hooks}/lib/request.js`);
    const caller = requireUser(e, "Not authenticated");
    require(`${__hooks}/lib/sso_passphrase.js`).setPassphrase(e.app, caller.id, readJsonObject(e));
    return e.json(200, { saved: true });
  },
  $apis.bodyLimit(64 * 1024),
);

routerAdd("GET", "/api/chat/admin/sso", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
  requireAdmin(e.app, requireUser(e, "Not authenticated").id);
  return e.json(200, require(`${__hooks}/lib/sso_settings.js`).consoleSso(e.app));
});

routerAdd(
  "POST",
  "/api/chat/admin/sso",
  (e) => {
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
    const { writeSso, consoleSso } = require(`${__hooks}/lib/sso_settings.js`);
    const { append } = require(`${__hooks}/lib/audit.js`);
    const caller = requireUser(e, "Not authenticated");
    const role = requireAdmin(e.app, caller.id);
    const body = readJsonObject(e);
    e.app.runInTransaction((txApp) => {
      const changed = writeSso(txApp, role, body);
      if (changed.length > 0) {
        append(txApp, e, { actor: caller.id, action: "settings.changed", details: { section: "single_sign_on", settings: changed } });
      }
    });
    return e.json(200, consoleSso(e.app));
  },
  $apis.bodyLimit(8192),
);

onRecordAuthWithPasswordRequest((e) => {
  // the account an address still pending opens counts too (lib/pending_email.js)
  require(`${__hooks}/lib/pending_email.js`).resolveSignInAccount(e);
  require(`${__hooks}/lib/sso_settings.js`).refusePasswordWhenRequired(e.app, e.record);
  e.next();
}, "users");

onRecordAuthRefreshRequest((e) => {
  const { linkOfUser, checkLink } = require(`${__hooks}/lib/sso_leavers.js`);
  const link = linkOfUser(e.app, e.record.id);
  if (link && checkLink(e.app, link, e) === "gone") {
    throw require(`${__hooks}/lib/errors.js`).forbidden(require(`${__hooks}/lib/sso.js`).GONE);
  }
  e.next();
}, "users");

cronAdd("chatcryptSsoLeavers", "* * * * *", () => {
  require(`${__hooks}/lib/sso_leavers.js`).checkAll(/** @type {core.App} */ (/** @type {unknown} */ ($app)));
});
