// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Reading and checking the input of the /api/chat/ routes. Every check throws a typed 4xx error
// with a message the client can show; nothing here ever answers with a 500.

const { badRequest, unauthorized } = require(`${__hooks}/lib/errors.js`);

const NOT_A_JSON_OBJECT = "Request body must be a JSON object.";

const patterns = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  userId: /^[a-z0-9]{15}$/,
  username: /^[A-Za-z0-9_.-]{3,32}$/,
  // 32 bytes in unpadded base64url
  verifier: /^[A-Za-z0-9_-]{43}$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
};

// The signed-in user of the "users" collection, or a 401 with the given message.
/**
 * @param {core.RequestEvent} e
 * @param {string} message
 * @returns {core.Record}
 */
function requireUser(e, message) {
  const auth = e.auth;
  if (!auth || auth.collection().name !== "users") {
    throw unauthorized(message);
  }
  return auth;
}

// The parsed JSON object body; 400 for any other content type, invalid JSON, arrays, scalars.
// An empty body reads as {}.
/**
 * @param {core.RequestEvent} e
 * @returns {JsonObject}
 */
function readJsonObject(e) {
  const contentType = String(e.request.header.get("Content-Type") || "").toLowerCase();
  const hasBody = e.request.contentLength !== 0;
  if (hasBody && contentType.indexOf("application/json") !== 0) {
    throw badRequest(NOT_A_JSON_OBJECT);
  }

  let body;
  try {
    body = e.requestInfo().body;
  } catch (_) {
    throw badRequest(NOT_A_JSON_OBJECT);
  }

  if (body === null || body === undefined || typeof body !== "object" || Array.isArray(body)) {
    throw badRequest(NOT_A_JSON_OBJECT);
  }
  return body;
}

// The string value of body[name] if it matches pattern, else a 400 with message.
/**
 * @param {JsonObject} body
 * @param {string} name
 * @param {RegExp} pattern
 * @param {string} message
 * @returns {string}
 */
function matching(body, name, pattern, message) {
  const value = body[name];
  if (typeof value !== "string" || !pattern.test(value)) {
    throw badRequest(message);
  }
  return value;
}

// A non-empty string; its size is checked by the collection schema when it is saved.
/**
 * @param {JsonObject} body
 * @param {string} name
 * @returns {string}
 */
function nonEmptyString(body, name) {
  const value = body[name];
  if (typeof value !== "string" || value.length === 0) {
    throw badRequest(`${name} must be a non-empty string.`);
  }
  return value;
}

// A JSON number without a fraction; its range is checked by the collection schema.
/**
 * @param {JsonObject} body
 * @param {string} name
 * @returns {number}
 */
function wholeNumber(body, name) {
  const value = body[name];
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw badRequest(`${name} must be a whole number.`);
  }
  return value;
}

// Length in characters (code points), the way PocketBase counts text field sizes.
/** @param {string} value */
function characterCount(value) {
  return Array.from(value).length;
}

module.exports = {
  patterns,
  requireUser,
  readJsonObject,
  matching,
  nonEmptyString,
  wholeNumber,
  characterCount,
};
