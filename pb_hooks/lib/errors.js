// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Typed API errors whose message reaches the client exactly as written.
//
// PocketBase's error constructors turn every message into a sentence (capital first letter and a
// trailing period), so "Incorrect password" would become "Incorrect password.". The spec's texts
// are shown to users as they are, so the message is set again after construction.
//
// Every error answers with PocketBase's JSON error shape: {"status", "message", "data"}. "data" stays
// empty: the message is the whole answer (clients that prefer per-field messages in "data" would
// otherwise show PocketBase's generic field text instead of ours).

/**
 * @template {router.ApiError} E
 * @param {E} error
 * @param {string} message
 * @returns {E}
 */
function withMessage(error, message) {
  error.message = message;
  return error;
}

/** @param {string} message */
function badRequest(message) {
  return withMessage(new BadRequestError(message), message);
}

/** @param {string} message */
function unauthorized(message) {
  return withMessage(new UnauthorizedError(message), message);
}

/** @param {string} message */
function forbidden(message) {
  return withMessage(new ForbiddenError(message), message);
}

/** @param {string} message */
function notFound(message) {
  return withMessage(new NotFoundError(message), message);
}

/** @param {string} message */
function conflict(message) {
  return withMessage(new ApiError(409, message), message);
}

/** @param {string} message */
function tooManyRequests(message) {
  return withMessage(new TooManyRequestsError(message), message);
}

// Field errors of a failed save, as {fieldName: "message"}; empty when the error carries none.
/**
 * @param {any} error what a failed save threw
 * @returns {{ [field: string]: any }}
 */
function fieldErrors(error) {
  const value = error && error.value;
  if (!value || typeof value.marshalJSON !== "function") {
    return {};
  }
  try {
    const parsed = JSON.parse(toString(value.marshalJSON()));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch (_) {
    return {};
  }
}

const SERVER_BUSY = "The server is busy. Please try again in a moment.";

// A 400 for a record that failed validation while saving, naming the first rejected field, e.g.
// "Invalid ecdh_public_key: Must be no more than 1000 character(s)."
// `messages` may give, per field name, a fixed message or a function (fieldMessage) => message.
// A save that failed only because the database stayed locked is a 503 that says so, not a 400.
/**
 * @param {any} error what the save threw
 * @param {string} fallback
 * @param {{ [field: string]: string | ((fieldMessage: string) => string) }} [messages]
 */
function invalidRecord(error, fallback, messages) {
  const fields = fieldErrors(error);
  const names = Object.keys(fields).sort();
  for (const name of names) {
    const custom = messages && messages[name];
    if (typeof custom === "string") {
      return badRequest(custom);
    }
    if (typeof custom === "function") {
      return badRequest(custom(String(fields[name])));
    }
  }
  if (names.length === 0 && /database is locked|database table is locked|SQLITE_BUSY/i.test(String(error))) {
    // the database stayed busy for the whole busy timeout: nothing about the data was wrong
    return withMessage(new ApiError(503, SERVER_BUSY), SERVER_BUSY);
  }
  if (names.length > 0) {
    const first = names[0];
    const detail = typeof fields[first] === "string" ? fields[first] : JSON.stringify(fields[first]);
    const sentence = detail.charAt(0).toUpperCase() + detail.slice(1);
    return badRequest(`Invalid ${first}: ${/[.!?]$/.test(sentence) ? sentence : sentence + "."}`);
  }
  return badRequest(fallback);
}

module.exports = { badRequest, unauthorized, forbidden, notFound, conflict, tooManyRequests, fieldErrors, invalidRecord };
