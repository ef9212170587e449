// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// A first single sign-on that set up encryption with a passkey (docs/decisions/0081-a-passkey-first-and-search-after-a-sweep.md):
// the account was created with its keys wrapped under a random secret the browser forgot at once, so
// only this device, the passkey and the recovery key open them. Right after, the person may add an
// encryption passphrase for devices without the passkey: the browser wraps the same keys under it and
// sends them here, once, with the sign-up's ticket (kept ten minutes for it after the sign-up: sso.pb.js). The
// account's login secret stays random: a passphrase never signs in.

const { badRequest, forbidden } = require(`${__hooks}/lib/errors.js`);
const { wrappedKeysOf } = require(`${__hooks}/lib/account_keys.js`);
const { keep, kept } = require(`${__hooks}/lib/sso.js`);

const PASSPHRASE = "chat.sso-passphrase ";

/**
 * Keeps the sign-up's ticket for the passphrase that may follow a passkey.
 * @param {core.App} app
 * @param {string} ticket
 * @param {string} userId
 */
function allowPassphrase(app, ticket, userId) {
  keep(app, PASSPHRASE, ticket, { user: userId });
}

/**
 * Stores the keys wrapped under the new passphrase; answers nothing. 400 an expired or used ticket or
 * malformed keys, 403 another account's ticket.
 * @param {core.App} app
 * @param {string} userId the signed-in caller
 * @param {JsonObject} body {ticket, encrypted_ecdh_private_key, encrypted_rsa_private_key, kdf_iterations}
 */
function setPassphrase(app, userId, body) {
  const keys = wrappedKeysOf(body);
  const allowed = kept(app, PASSPHRASE, body.ticket, false);
  if (allowed.user !== userId) throw forbidden("This sign-in belongs to another account.");
  app.store().remove(PASSPHRASE + body.ticket);
  const user = app.findRecordById("users", userId);
  if (user.getString("encrypted_ecdh_private_key") === "") throw badRequest("This account has no keys to wrap.");
  user.set("encrypted_ecdh_private_key", keys.ecdh);
  user.set("encrypted_rsa_private_key", keys.rsa);
  user.set("kdf_iterations", keys.iterations);
  app.save(user);
}

module.exports = { allowPassphrase, setPassphrase };
