// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// New devices approved from a signed-in one (docs/decisions/0059-device-approval.md): the records of
// device_links and the checks every route makes. The server relays public keys and one sealed blob;
// it never holds a key that opens it.

const { badRequest, conflict, notFound, tooManyRequests } = require(`${__hooks}/lib/errors.js`);
const { take } = require(`${__hooks}/lib/limits.js`);

const COLLECTION = "device_links";
/** A request lives this long (the new device says "This request expired. Start again."). */
const LIFETIME_MS = 5 * 60 * 1000;
/** base64 SPKI of an ECDH P-256 public key, as the browser exports it. */
const PUBLIC_KEY = /^[A-Za-z0-9+/]{120,200}={0,2}$/;
/** base64url AES-GCM output of the sealed identity keys. */
const SEALED = /^[A-Za-z0-9_-]{40,20000}$/;
const SECRET = /^[A-Za-z0-9]{43}$/;
const ID = /^[a-z0-9]{15}$/;
const IDENTITY_MAX = 254;
// what the web server forwards of the browser ("Chrome on Linux"), as pocketbase/devices.go reads it
const AGENT = /^[A-Za-z0-9][A-Za-z0-9 .]{0,47}$/;
const NOT_FOUND = "This request was not found.";
// requests started for one account (or one unknown name: the same limit) within ten minutes
const PER_ACCOUNT = [{ windowMs: 10 * 60 * 1000, max: 10 }];

/**
 * @param {JsonObject} body
 * @param {string} name
 * @param {RegExp} pattern
 * @param {string} message
 */
function field(body, name, pattern, message) {
  const value = body[name];
  if (typeof value !== "string" || !pattern.test(value)) throw badRequest(message);
  return value;
}

/** @param {core.RequestEvent} e */
function agentOf(e) {
  const agent = String(e.requestInfo().headers["x_chatcrypt_agent"] || "");
  return AGENT.test(agent) ? agent : "Unknown browser";
}

/**
 * The account a username or email names, or null (the answer is the same either way).
 * @param {core.App} app
 * @param {string} identity
 * @returns {string | null}
 */
function accountOf(app, identity) {
  try {
    if (identity.indexOf("@") !== -1) {
      const { accountByAddress } = require(`${__hooks}/lib/pending_email.js`);
      const account = accountByAddress(app, identity);
      return account ? account.id : null;
    }
    const row = new DynamicModel({ id: "" });
    app.db().newQuery("SELECT id FROM profiles WHERE username = {:name} COLLATE NOCASE LIMIT 1").bind({ name: identity }).one(row);
    return row.id || null;
  } catch (_) {
    return null;
  }
}

/** @param {core.Record} record */
const expired = (record) => Date.now() >= new Date(record.getString("expires").replace(" ", "T")).getTime();

/**
 * Starts a request: for the account named by `identity` (signed out), or for the signed-in `userId`
 * (its keys only). Answers the id, the secret only this device will hold, and when it expires.
 * @param {core.RequestEvent} e
 * @param {JsonObject} body
 * @param {string | null} signedInUser
 */
function startLink(e, body, signedInUser) {
  const deviceKey = field(body, "device_key", PUBLIC_KEY, "device_key must be an ECDH P-256 public key (base64 SPKI).");
  let user = signedInUser;
  let limitKey = `device-link ${signedInUser}`;
  if (!signedInUser) {
    const identity = body.identity;
    if (typeof identity !== "string" || identity.trim() === "" || identity.length > IDENTITY_MAX) {
      throw badRequest("Enter your username or email.");
    }
    const name = identity.trim().toLowerCase();
    limitKey = `device-link ${name}`;
    user = accountOf(e.app, name);
  }
  if (!take(e.app, limitKey, PER_ACCOUNT)) throw tooManyRequests("Too many requests for this account. Please wait a few minutes.");
  const secret = $security.randomString(43);
  const record = new Record(e.app.findCollectionByNameOrId(COLLECTION));
  record.set("user", user || "");
  record.set("purpose", signedInUser ? "keys" : "signin");
  record.set("state", "pending");
  record.set("secret_hash", $security.sha256(secret));
  record.set("device_key", deviceKey);
  record.set("agent", agentOf(e));
  const expires = new Date(Date.now() + LIFETIME_MS).toISOString().replace("T", " ");
  record.set("expires", expires);
  e.app.save(record);
  return { id: record.id, secret, expires };
}

/**
 * The caller's own pending request, or 404 (another account's, spent, expired, unknown: all alike).
 * @param {core.App} app
 * @param {string} id
 * @param {string} userId
 */
function ownPending(app, id, userId) {
  if (!ID.test(id)) throw notFound(NOT_FOUND);
  /** @type {core.Record} */
  let record;
  try {
    record = app.findRecordById(COLLECTION, id);
  } catch (_) {
    throw notFound(NOT_FOUND);
  }
  if (record.getString("user") !== userId || record.getString("state") !== "pending" || expired(record)) throw notFound(NOT_FOUND);
  return record;
}

/** @param {core.Record} record */
const listing = (record) => ({
  id: record.id,
  device_key: record.getString("device_key"),
  approver_key: record.getString("approver_key"),
  agent: record.getString("agent"),
  created: record.getString("created"),
  expires: record.getString("expires"),
});

/**
 * The signed-in user's pending requests, newest first.
 * @param {core.App} app
 * @param {string} userId
 */
function pendingFor(app, userId) {
  const now = new Date().toISOString().replace("T", " ");
  return app
    .findRecordsByFilter(COLLECTION, "user = {:user} && state = 'pending' && expires > {:now}", "-created", 20, 0, { user: userId, now })
    .map(listing);
}

/**
 * Takes the request for the approving device: its public key goes to the new device, which shows
 * the code of both keys. The first device to take it keeps it; the same key again is no change.
 * @param {core.App} app
 * @param {core.Record} record
 * @param {JsonObject} body
 */
function claim(app, record, body) {
  const key = field(body, "approver_key", PUBLIC_KEY, "approver_key must be an ECDH P-256 public key (base64 SPKI).");
  const current = record.getString("approver_key");
  if (current && current !== key) throw conflict("Another of your devices is answering this request.");
  if (!current) {
    record.set("approver_key", key);
    app.save(record);
  }
  return listing(record);
}

/**
 * The device that took the request lets it go unanswered (its person closed the question): any of their
 * devices may take it again. Another device's key is left as it is.
 * @param {core.App} app
 * @param {core.Record} record
 * @param {JsonObject} body
 */
function release(app, record, body) {
  const key = field(body, "approver_key", PUBLIC_KEY, "approver_key must be an ECDH P-256 public key (base64 SPKI).");
  if (record.getString("approver_key") !== key) return;
  record.set("approver_key", "");
  app.save(record);
}

/**
 * Approves with the keys sealed to the new device, by the device that took the request.
 * @param {core.App} app
 * @param {core.Record} record
 * @param {JsonObject} body
 */
function approve(app, record, body) {
  const key = field(body, "approver_key", PUBLIC_KEY, "approver_key must be an ECDH P-256 public key (base64 SPKI).");
  const sealed = field(body, "sealed", SEALED, "sealed must be the sealed keys (base64url, at most 20000 characters).");
  if (record.getString("approver_key") !== key) throw conflict("Another of your devices is answering this request.");
  record.set("sealed", sealed);
  record.set("state", "approved");
  app.save(record);
}

/**
 * The new device's request, found with its secret; 404 for a wrong secret or an unknown id.
 * @param {core.App} app
 * @param {JsonObject} body
 */
function withSecret(app, body) {
  const id = field(body, "id", ID, "id must be a request id.");
  const secret = field(body, "secret", SECRET, "secret must be the request's secret.");
  /** @type {core.Record} */
  let record;
  try {
    record = app.findRecordById(COLLECTION, id);
  } catch (_) {
    throw notFound(NOT_FOUND);
  }
  if (record.getString("secret_hash") !== $security.sha256(secret)) throw notFound(NOT_FOUND);
  return record;
}

module.exports = { startLink, ownPending, pendingFor, claim, release, approve, withSecret, expired };
