// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Reset codes (docs/decisions/0062-reset-codes.md): an administrator issues one for a person; the
// person exchanges it, with their email address, for a password reset token, which opens the reset
// page exactly as a reset email's link does (the recovery key or a passkey keeps their messages).
// One code per person at a time, valid 24 hours, used once; only its SHA-256 is stored.

const { badRequest, invalidRecord } = require(`${__hooks}/lib/errors.js`);

/** Crockford's base32 without I, L, O, U: nothing to mistake when read aloud or typed. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const LENGTH = 12;
const VALID_MS = 24 * 60 * 60 * 1000;
const INVALID = "This reset code is not valid. Check it, or ask an administrator for a new one.";

/**
 * The code as typed (any case, spaces or dashes) in its stored form, or "" when it cannot be one.
 * @param {unknown} value
 */
function normalize(value) {
  if (typeof value !== "string" || value.length > 40) return "";
  const code = value.toUpperCase().replace(/[\s-]/g, "");
  return code.length === LENGTH && code.split("").every((c) => ALPHABET.indexOf(c) >= 0) ? code : "";
}

/** XXXX-XXXX-XXXX, as the administrator reads it out. @param {string} code */
const display = (code) => `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;

/**
 * A new code for the person (any earlier one goes): its display form and when it expires.
 * @param {core.App} txApp
 * @param {string} userId
 * @param {string} issuedBy
 */
function issue(txApp, userId, issuedBy) {
  for (const old of txApp.findRecordsByFilter("reset_codes", "user = {:user}", "", 0, 0, { user: userId })) txApp.delete(old);
  const code = $security.randomStringWithAlphabet(LENGTH, ALPHABET);
  const record = new Record(txApp.findCollectionByNameOrId("reset_codes"));
  const expires = new Date(Date.now() + VALID_MS).toISOString().replace("T", " ");
  record.set("user", userId);
  record.set("code_hash", $security.sha256(code));
  record.set("issued_by", issuedBy);
  record.set("expires", expires);
  try {
    txApp.save(record);
  } catch (err) {
    throw invalidRecord(err, "The reset code could not be made. Please try again.");
  }
  return { code: display(code), expires };
}

/**
 * The account whose unexpired code this is, the code spent; otherwise 400 INVALID (the same for an
 * unknown address, a wrong, used or expired code).
 * @param {core.App} txApp
 * @param {unknown} email
 * @param {unknown} typed
 * @returns {core.Record}
 */
function redeem(txApp, email, typed) {
  const code = normalize(typed);
  if (typeof email !== "string" || email.length > 320 || code === "") throw badRequest(INVALID);
  // the account that has the address, or one whose address is still pending (lib/pending_email.js)
  const address = email.trim().toLowerCase();
  const users = txApp.findRecordsByFilter("users", "email = {:address} || pending_email = {:address}", "-created", 6, 0, { address });
  const codes = users.map((user) => txApp.findRecordsByFilter("reset_codes", "user = {:user}", "", 1, 0, { user: user.id })[0]);
  const at = codes.findIndex((found) => found && found.getString("code_hash") === $security.sha256(code));
  const [user, found] = [users[at], codes[at]];
  if (!user || !found) throw badRequest(INVALID);
  if (found.getDateTime("expires").before(new DateTime())) throw badRequest(INVALID);
  txApp.delete(found);
  return user;
}

module.exports = { INVALID, normalize, issue, redeem };
