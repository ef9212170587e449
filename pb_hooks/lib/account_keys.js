// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// The account's private keys as the browser wraps them under the key its password derives (ADR 10,
// ADR 27), stored together with the login secret that password gives: sign-up, password change,
// password reset and email change all store them here, and all but sign-up (whose fields the
// collection schema checks, naming each) read them from a request here. Hooks never see a key.

const { badRequest } = require(`${__hooks}/lib/errors.js`);
const { matching, wholeNumber } = require(`${__hooks}/lib/request.js`);

// "v1." + base64url(iv) + "." + base64url(ciphertext), as app/crypto/keys.ts wraps a private key.
const WRAPPED = /^v[0-9]{1,3}\.[A-Za-z0-9_-]{16,24}\.[A-Za-z0-9_-]{20,7900}$/;

/**
 * The wrapped keys and the key derivation's iteration count of a request's body, or a 400.
 * @param {JsonObject} body
 * @returns {{ecdh: string, rsa: string, iterations: number}}
 */
function wrappedKeysOf(body) {
  const ecdh = matching(body, "encrypted_ecdh_private_key", WRAPPED, "encrypted_ecdh_private_key must be a wrapped private key.");
  const rsa = matching(body, "encrypted_rsa_private_key", WRAPPED, "encrypted_rsa_private_key must be a wrapped private key.");
  const iterations = wholeNumber(body, "kdf_iterations");
  if (iterations < 100000 || iterations > 10000000) {
    throw badRequest("kdf_iterations must be between 100000 and 10000000.");
  }
  return { ecdh, rsa, iterations };
}

/**
 * Gives an account a new login secret and the keys wrapped under the password it comes from; the
 * caller saves the record in its transaction (a new password gives the account a new token key).
 * @param {core.Record} user
 * @param {string} secret
 * @param {{ecdh: string, rsa: string, iterations: number}} keys
 */
function setLoginAndKeys(user, secret, keys) {
  user.setPassword(secret);
  user.set("encrypted_ecdh_private_key", keys.ecdh);
  user.set("encrypted_rsa_private_key", keys.rsa);
  user.set("kdf_iterations", keys.iterations);
}

module.exports = { WRAPPED, setLoginAndKeys, wrappedKeysOf };
