// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// The account's own data: the password check of account actions, the email-change token and deleting
// an account (pb_hooks/account_data.pb.js, docs/decisions/0029-change-email-delete-export.md); what
// the server holds about it is listed by lib/account_export.js.

const { badRequest, tooManyRequests } = require(`${__hooks}/lib/errors.js`);
// true when another account has the address (whatever its case)
const { accountAddress, addressTaken: emailTaken, escapeHtml } = require(`${__hooks}/lib/pending_email.js`);
const { accountKey, noteFailure, takeSignInAttempt } = require(`${__hooks}/lib/signin.js`);

const WRONG_PASSWORD = "Incorrect password.";
const INVALID_LINK = "This link is invalid or has expired. Ask for a new one in Menu > Account.";
const LOGIN_SECRET = /^[A-Za-z0-9_-]{43}$/;

// References to a deleted account that stay, because they belong to what stays: the messages it sent
// (and their files), the MLS commits its devices made, and other users' key pins for it (their data,
// sealed under their keys). Every other record that points at the account goes.
const KEPT_REFERENCES = [
  ["messages", "sender"],
  ["file_attachments", "uploaded_by"],
  ["mls_commits", "sender"],
  ["key_pins", "subject"],
];

/**
 * The account's login secret (what the browser derives from the password), checked with the same
 * per-account limits on guessing as a sign-in (lib/signin.js). 400 when wrong, 429 past the limit.
 * @param {core.App} app
 * @param {core.Record} record
 * @param {unknown} secret
 */
function checkLoginSecret(app, record, secret) {
  if (typeof secret !== "string" || !LOGIN_SECRET.test(secret)) throw badRequest(WRONG_PASSWORD);
  const account = accountKey(accountAddress(record));
  const attempt = takeSignInAttempt(app, account, "");
  if (!attempt.ok) {
    noteFailure(app, account);
    throw tooManyRequests(attempt.message);
  }
  if (!record.validatePassword(secret)) {
    noteFailure(app, account);
    throw badRequest(WRONG_PASSWORD);
  }
  attempt.releaseAll();
}

/**
 * The account and the new address of an email-change token (from the emailed link), or a 400: the
 * token must be PocketBase's own, unexpired, for a "users" record whose address has not changed since.
 * @param {core.App} app
 * @param {unknown} token
 */
function emailChangeOf(app, token) {
  if (typeof token !== "string" || token.length < 20 || token.length > 4096) throw badRequest(INVALID_LINK);
  let record;
  try {
    record = app.findAuthRecordByToken(token, "emailChange");
  } catch (_) {
    throw badRequest(INVALID_LINK);
  }
  const claims = $security.parseUnverifiedJWT(token);
  const newEmail = String(claims.newEmail || "");
  if (!record || record.collection().name !== "users" || !newEmail || String(claims.email || "") !== accountAddress(record)) {
    throw badRequest(INVALID_LINK);
  }
  return { record, newEmail };
}

/**
 * Every field of a base collection that points at "users", as [collection name, field name].
 * @param {core.App} app
 * @returns {[string, string][]}
 */
function userReferences(app) {
  const usersId = app.findCollectionByNameOrId("users").id;
  /** @type {[string, string][]} */
  const out = [];
  for (const collection of app.findAllCollections("base")) {
    if (!collection) continue;
    for (const field of /** @type {any[]} */ (/** @type {any} */ (collection.fields))) {
      if (field && field.type() === "relation" && field.collectionId === usersId) out.push([collection.name, field.getName()]);
    }
  }
  return out;
}

/**
 * @param {core.App} app
 * @param {string} collection
 * @param {string} field
 * @param {string} userId
 */
function idsReferring(app, collection, field, userId) {
  return app.findRecordsByFilter(collection, `${field} ?= {:user}`, "", 0, 0, { user: userId }).map((r) => (r ? r.id : ""));
}

/**
 * The channels the user created, each with the member who joined it first after them ("" for none).
 * @param {core.App} app
 * @param {string} id
 */
function createdChannels(app, id) {
  return app
    .findRecordsByFilter("channels", "created_by = {:id}", "", 0, 0, { id })
    .filter((channel) => Boolean(channel))
    .map((channel) => {
      const first = app.findRecordsByFilter("channel_members", "channel = {:channel} && user != {:id}", "created,id", 1, 0, {
        channel: channel.id,
        id,
      })[0];
      return { channel, heir: first ? first.getString("user") : "" };
    });
}

/**
 * What deleting the account would do to the channels it created (nothing is changed).
 * @param {core.App} app
 * @param {core.Record} user
 */
function deletionPlan(app, user) {
  const created = createdChannels(app, user.id);
  const handedOver = created.filter((c) => c.heir).length;
  return { channelsHandedOver: handedOver, channelsDeleted: created.length - handedOver };
}

/**
 * Deletes the account in one transaction (docs/decisions/0029-change-email-delete-export.md):
 *   - its public keys are kept under its id in deleted_accounts (its messages stay verifiable);
 *   - each channel it created goes to the member who joined it first, or is deleted with no other member;
 *   - every record that points at it goes (profile, keys, keyring, pins, settings, contacts,
 *     memberships, read positions, key packages, push subscriptions, notification rules, and whatever
 *     else a collection relates to the account), except the KEPT_REFERENCES, which stay as they are;
 *   - the "users" record goes through PocketBase (its auth origins, MFA and OTP records with it), so
 *     every token of the account stops working; the caller's token is revoked too, which closes its
 *     live streams (pocketbase/relay.go).
 * @param {core.App} app
 * @param {core.Record} user
 * @param {string} token the caller's token
 * @returns {{ channelsHandedOver: number, channelsDeleted: number }}
 */
function deleteAccount(app, user, token) {
  const result = { channelsHandedOver: 0, channelsDeleted: 0 };
  const id = user.id;
  app.runInTransaction((txApp) => {
    const profile = txApp.findRecordsByFilter("profiles", "id = {:id}", "", 1, 0, { id })[0];
    if (profile) {
      const tomb = new Record(txApp.findCollectionByNameOrId("deleted_accounts"));
      tomb.set("id", id);
      tomb.set("ecdh_public_key", profile.getString("ecdh_public_key"));
      tomb.set("rsa_public_key", profile.getString("rsa_public_key"));
      txApp.save(tomb);
      txApp.delete(profile);
    }

    for (const { channel, heir } of createdChannels(txApp, id)) {
      if (heir) {
        channel.set("created_by", heir);
        txApp.save(channel);
        result.channelsHandedOver++;
      } else {
        txApp.delete(channel);
        result.channelsDeleted++;
      }
    }

    const kept = KEPT_REFERENCES.map((pair) => pair.join("."));
    const references = userReferences(txApp);
    for (const [collection, field] of references) {
      if (kept.indexOf(`${collection}.${field}`) >= 0) continue;
      for (const recordId of idsReferring(txApp, collection, field, id)) {
        // an earlier deletion may have taken it along (a membership takes its keyring entry)
        const record = txApp.findRecordsByFilter(collection, "id = {:recordId}", "", 1, 0, { recordId })[0];
        if (record) txApp.delete(record);
      }
    }

    // What stays is set aside while PocketBase deletes the account (its cascade would take the
    // messages along, and refuse to delete an account an MLS commit names), then put back.
    const hold = "~" + id;
    const present = KEPT_REFERENCES.filter(([collection, field]) => references.some(([c, f]) => c === collection && f === field));
    const move = (/** @type {string} */ from, /** @type {string} */ to) => {
      for (const [collection, field] of present) {
        txApp.db().newQuery(`UPDATE {{${collection}}} SET [[${field}]] = {:to} WHERE [[${field}]] = {:from}`).bind({ from, to }).execute();
      }
    };
    move(id, hold);
    txApp.delete(user);
    move(hold, id);

    if (token) {
      const exp = Number($security.parseUnverifiedJWT(token).exp) || Date.now() / 1000 + 8 * 24 * 60 * 60;
      const revoked = new Record(txApp.findCollectionByNameOrId("revoked_tokens"));
      revoked.set("token_hash", $security.sha256(token));
      revoked.set("expires", new Date(exp * 1000).toISOString().replace("T", " "));
      txApp.save(revoked);
    }
  });
  return result;
}

/**
 * After an email change: the old address is told, so that a change the person did not make is noticed
 * there (the account's mail now goes to the new one). A failed send is logged; the change stands.
 * @param {core.App} app
 * @param {string} oldEmail
 * @param {string} newEmail
 */
function tellOldAddress(app, oldEmail, newEmail) {
  const { mailSender } = require(`${__hooks}/lib/mail_settings.js`);
  const sentence = `The email address of your ChatCrypt account was changed from ${oldEmail} to ${newEmail}.`;
  const advice = "If you did not change it, ask the person who runs your ChatCrypt server to help you get your account back.";
  try {
    app.newMailClient().send(
      new MailerMessage({
        from: mailSender(app),
        to: [{ address: oldEmail }],
        subject: "Your ChatCrypt email address was changed",
        text: `${sentence}\n\n${advice}`,
        html: `<p>${escapeHtml(sentence)}</p><p>${escapeHtml(advice)}</p>`,
      }),
    );
  } catch (err) {
    app.logger().warn("email change: the old address could not be told", "error", String(err));
  }
}

/**
 * An email change asked for an address another account has: that address is told what happened, and the
 * asker gets the same answer as for a free address (issue 47: the answer no longer says which
 * addresses have an account). Nothing changes; a failed send is logged.
 * @param {core.App} app
 * @param {string} takenEmail
 */
function tellTakenAddress(app, takenEmail) {
  const { mailSender } = require(`${__hooks}/lib/mail_settings.js`);
  const sentence = `Someone tried to change the email address of another ChatCrypt account to yours (${takenEmail}). Nothing was changed: your address stays with your account.`;
  const advice = "If it was you, sign in to the account this address already belongs to. If not, you can ignore this email.";
  try {
    app.newMailClient().send(
      new MailerMessage({
        from: mailSender(app),
        to: [{ address: takenEmail }],
        subject: "Someone tried to use your email address on ChatCrypt",
        text: `${sentence}\n\n${advice}`,
        html: `<p>${escapeHtml(sentence)}</p><p>${escapeHtml(advice)}</p>`,
      }),
    );
  } catch (err) {
    app.logger().warn("email change: the address's owner could not be told", "error", String(err));
  }
}

module.exports = {
  tellOldAddress,
  tellTakenAddress,
  INVALID_LINK,
  KEPT_REFERENCES,
  checkLoginSecret,
  deleteAccount,
  deletionPlan,
  emailChangeOf,
  emailTaken,
  userReferences,
};
