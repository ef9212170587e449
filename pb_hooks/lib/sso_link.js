// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Linking single sign-on to an existing password account (docs/decisions/0063-single-sign-on.md).
// The provider vouched for an email a password account has (finish answered {link: {ticket, email}});
// its owner proves the account is theirs with its password, once: the login secret the browser derives
// from it, checked as a password sign-in checks it. The account keeps its keys, its password and its
// wrapping (the browser unlocks with the password, as at sign-in); from then on the provider signs it in.

const { badRequest, conflict, forbidden } = require(`${__hooks}/lib/errors.js`);
const { LINK, kept, linkOf, saveLink, settingsOrNotFound } = require(`${__hooks}/lib/sso.js`);

const TRIES = 5;
const WRONG = "This is not the password of the account with this email address. Check it and try again.";
const TOO_MANY = "Too many wrong passwords. Start again with the identity provider.";
const LINKED_ELSEWHERE = "This account is linked to another account of the identity provider already.";

/**
 * @param {core.App} app
 * @param {JsonObject} body {ticket, login_secret}
 * @param {core.RequestEvent} e the request (the audit entry's address and device)
 * @returns {core.Record} the account, now linked (to answer with a session)
 */
function linkAccount(app, body, e) {
  settingsOrNotFound(app);
  const ticket = kept(app, LINK, body.ticket, false);
  const secret = body.login_secret;
  if (typeof secret !== "string" || secret.length < 1 || secret.length > 200)
    throw badRequest("login_secret must be the password's login secret.");
  const user = app.findRecordById("users", ticket.user);
  const { accountAddress, attachAddress } = require(`${__hooks}/lib/pending_email.js`);
  if (accountAddress(user).toLowerCase() !== ticket.email) throw badRequest("This sign-in has expired or was already used. Start again.");
  if (!user.validatePassword(secret)) {
    const tries = Number(ticket.tries) + 1;
    if (tries >= TRIES) {
      app.store().remove(LINK + body.ticket);
      throw badRequest(TOO_MANY);
    }
    app.store().set(LINK + body.ticket, { ...ticket, tries });
    throw badRequest(WRONG);
  }
  if (isDeactivated(app, user.id)) throw forbidden("This account is deactivated.");
  app.runInTransaction((txApp) => {
    if (linkOf(txApp, ticket.issuer, ticket.subject)) throw conflict("This account was already linked. Sign in again.");
    if (txApp.countRecords("sso_links", $dbx.hashExp({ user: user.id })) > 0) throw conflict(LINKED_ELSEWHERE);
    saveLink(txApp, user.id, ticket);
    // the provider vouched for the address: a pending one becomes the account's
    if (!user.email()) attachAddress(txApp, user.id, ticket.email);
    require(`${__hooks}/lib/audit.js`).append(txApp, e, {
      actor: user.id,
      action: "sso.linked",
      target: user.id,
      details: { issuer: ticket.issuer },
    });
  });
  app.store().remove(LINK + body.ticket);
  return user;
}

/** @param {core.App} app @param {string} userId */
function isDeactivated(app, userId) {
  try {
    return app.findRecordById("profiles", userId).getBool("deactivated");
  } catch (_) {
    return false;
  }
}

module.exports = { linkAccount };
