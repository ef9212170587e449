// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// An address typed at sign-up stays pending ("pending_email", "email" empty) until the link emailed to
// it is opened; the link attaches it if no account has it by then
// (docs/decisions/0082-pending-email-at-sign-up.md). A taken address gets no link but a mail saying
// what happened, and the sign-up is answered the same either way.

const { badRequest, conflict } = require(`${__hooks}/lib/errors.js`);

const LINK_TYPE = "chatcrypt.attachEmail";
const LINK_SECONDS = 3 * 24 * 60 * 60;
const INVALID_LINK = "This verification link is invalid or has expired. Ask for a new one in Notification Settings.";
const TAKEN = "Another account uses this email address now, so it cannot be added to yours.";
const SIGNUP_MAIL_LIMITS = [{ windowMs: 60 * 60 * 1000, max: 5 }];
const TRIED_SUBJECT = "Someone tried to sign up to ChatCrypt with your email address";

/**
 * The address an account signs in with: its own, else the one waiting for its link.
 * @param {core.Record} record
 */
function accountAddress(record) {
  return record.email() || record.getString("pending_email");
}

/**
 * The account that has the address, else the one account waiting to attach it (its sign-up link not
 * opened yet); null when none, or when several wait for it (nothing here tells them apart). For what
 * names an account by its address without its password: device links, failed sign-in bursts.
 * @param {core.App} app
 * @param {string} address
 * @returns {core.Record | null}
 */
function accountByAddress(app, address) {
  try {
    return app.findAuthRecordByEmail("users", address);
  } catch (_) {
    const pending = app.findRecordsByFilter("users", "email = '' && pending_email = {:email}", "", 2, 0, {
      email: String(address).trim().toLowerCase(),
    });
    return pending.length === 1 ? pending[0] : null;
  }
}

/**
 * @param {core.App} app
 * @param {string} email
 */
function addressTaken(app, email) {
  return app.countRecords("users", $dbx.exp("email = {:email} COLLATE NOCASE", { email })) > 0;
}

/**
 * The key a link of this account is signed with: a new password (a new token key) ends its links.
 * @param {core.App} app
 * @param {core.Record} record
 */
function linkKey(app, record) {
  return record.tokenKey() + app.findCollectionByNameOrId("users").verificationToken.secret;
}

/** @param {string} value */
const escapeHtml = (value) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * @param {core.App} app
 * @param {string} to
 * @param {string} subject
 * @param {string[]} paragraphs
 * @param {{ href: string, label: string } | null} link
 */
function send(app, to, subject, paragraphs, link) {
  const { mailSender } = require(`${__hooks}/lib/mail_settings.js`);
  const html = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`);
  if (link) html.splice(1, 0, `<p><a class="btn" href="${escapeHtml(link.href)}" target="_blank" rel="noopener">${link.label}</a></p>`);
  try {
    app.newMailClient().send(
      new MailerMessage({
        from: mailSender(app),
        to: [{ address: to }],
        subject,
        text: [paragraphs[0], ...(link ? [link.href] : []), ...paragraphs.slice(1)].join("\n\n"),
        html: html.join("\n"),
      }),
    );
  } catch (err) {
    app.logger().warn("sign-up: a mail could not be sent", "error", String(err));
  }
}

/**
 * Mails the account's pending address its link, or, when another account has that address, a mail
 * that says what happened. Nothing without SMTP or past 5 such mails an hour to the address.
 * @param {core.App} app
 * @param {core.Record} record
 * @returns {boolean} whether a mail was handed to the mailer
 */
function mailPendingAddress(app, record) {
  const { take } = require(`${__hooks}/lib/limits.js`);
  const address = record.getString("pending_email");
  if (!address || !app.settings().smtp.enabled) return false;
  // counted apart from the address's other emails, so that sign-ups never use up a reset or a notification
  if (!take(app, `mail.signup ${address.toLowerCase()}`, SIGNUP_MAIL_LIMITS)) {
    app.logger().warn("A sign-up mail was not sent: the address had 5 in the last hour.");
    return false;
  }
  const appUrl = String(app.settings().meta.appURL || "").replace(/\/+$/, "");
  if (addressTaken(app, address)) {
    send(
      app,
      address,
      TRIED_SUBJECT,
      [
        `Someone tried to sign up to ChatCrypt with your email address (${address}). Your account already has this address, and nothing about it was changed.`,
        `If it was you, sign in at ${appUrl}/ with this address and your password. If you forgot your password, choose "Forgot your password?" on the sign-in screen to reset it.`,
        "If it was not you, you can ignore this email: no one else can use your address.",
      ],
      null,
    );
    return true;
  }
  const token = $security.createJWT({ id: record.id, type: LINK_TYPE, email: address }, linkKey(app, record), LINK_SECONDS);
  send(
    app,
    address,
    "Confirm your email address for ChatCrypt",
    [
      "Someone, probably you, signed up to ChatCrypt with this address. Open the link below to confirm that the address is yours:",
      "If you did not sign up, ignore this email: without your confirmation the address is not added to any account.",
    ],
    { href: `${appUrl}/verify-email#token=${token}`, label: "Confirm my email address" },
  );
  return true;
}

/**
 * Attaches the pending address a link names, if it is still the account's pending address and no
 * account has it; the account's sessions stay (only its address and verification change).
 * A link opened again once its address is the account's own and verified answers as it did the first
 * time, changing nothing. 400 INVALID_LINK for a bad link, or one whose address the account no longer
 * waits for or has (also when the token is not one of these links), 409 TAKEN.
 * @param {core.App} app
 * @param {unknown} token
 * @returns {string} the attached address
 */
function attachPendingAddress(app, token) {
  if (typeof token !== "string" || token.length > 4096) throw badRequest(INVALID_LINK);
  /** @type {any} */
  let claims;
  try {
    claims = $security.parseUnverifiedJWT(token);
  } catch (_) {
    throw badRequest(INVALID_LINK);
  }
  if (!claims || claims.type !== LINK_TYPE || typeof claims.id !== "string") throw badRequest(INVALID_LINK);
  /** @type {core.Record} */
  let record;
  try {
    record = app.findRecordById("users", claims.id);
    $security.parseJWT(token, linkKey(app, record));
  } catch (_) {
    throw badRequest(INVALID_LINK);
  }
  const named = String(claims.email || "").toLowerCase();
  // (a link opened again, its address the account's own and verified by it: said as done, nothing changes)
  if (record.verified() && named !== "" && record.email().toLowerCase() === named) return record.email();
  const address = record.getString("pending_email");
  if (!address || named !== address.toLowerCase()) throw badRequest(INVALID_LINK);
  app.runInTransaction((txApp) => attachAddress(txApp, record.id, address));
  return address;
}

/**
 * Makes the account's pending address its own and verified, in the caller's transaction; 409 TAKEN when
 * another account has it. A plain update: saving the record would renew its token key (a new email)
 * and end its sessions.
 * @param {core.App} txApp
 * @param {string} id
 * @param {string} address
 */
function attachAddress(txApp, id, address) {
  if (addressTaken(txApp, address)) throw conflict(TAKEN);
  txApp
    .db()
    .newQuery("UPDATE users SET email = {:email}, verified = TRUE, pending_email = '' WHERE id = {:id} AND pending_email = {:email}")
    .bind({ email: address, id })
    .execute();
}

/**
 * The account a password sign-in by address opens: the one that has the address, unless the login
 * secret is not its own and an account whose pending address it is has that secret (the newest of at
 * most 5). Without pending accounts for the address, PocketBase's own check is the only one.
 * @param {core.App} app
 * @param {core.Record | undefined} found the account that has the address, if any
 * @param {string} identity
 * @param {string} password
 */
function signInAccount(app, found, identity, password) {
  const pending = app.findRecordsByFilter("users", "pending_email = {:email}", "-created", 5, 0, { email: identity.trim().toLowerCase() });
  if (pending.length === 0 || (found && found.validatePassword(password))) return found;
  return pending.find((record) => record.validatePassword(password)) || found;
}

/**
 * Sets the event's account to the one a sign-in by address opens (signInAccount), once per request:
 * every password sign-in hook that looks at the account calls it first, whichever runs first.
 * @param {core.RecordAuthWithPasswordRequestEvent} e
 */
function resolveSignInAccount(e) {
  if (e.get("chatcrypt.signInResolved")) return;
  e.set("chatcrypt.signInResolved", true);
  const record = signInAccount(e.app, e.record, String(e.identity || ""), String(e.password || ""));
  if (record) e.record = record;
}

module.exports = {
  accountAddress,
  accountByAddress,
  addressTaken,
  attachAddress,
  escapeHtml,
  attachPendingAddress,
  mailPendingAddress,
  resolveSignInAccount,
  INVALID_LINK,
  TAKEN,
  TRIED_SUBJECT,
};
