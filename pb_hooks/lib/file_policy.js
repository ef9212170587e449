// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Files people can send (docs/decisions/0071-files-a-team-sends.md). The kinds of file are the page's
// to enforce (a file's content and name are encrypted; its declared type is the sender's word); the
// size is checked here, on the declared size and on the stored file, whoever calls.

const { badRequest } = require(`${__hooks}/lib/errors.js`);
const { SETTINGS_ID, settingsRow } = require(`${__hooks}/lib/workspace.js`);

const FILE_TYPES = ["standard", "office", "any"];
/** The largest limit an administrator may set, in MB (the attachments field stores at most 60 MiB). */
const HARD_CAP_MB = 59;
const MIB = 1024 * 1024;
/** AES-GCM adds a 12-byte IV and a 16-byte tag to every file. */
const CIPHER_OVERHEAD_BYTES = 28;
const TYPES_MESSAGE = 'types must be "standard", "office" or "any".';
const MAX_MB_MESSAGE = `max_mb must be a whole number of MB from 1 to ${HARD_CAP_MB}.`;

/**
 * @typedef {{ types: string, maxMb: number }} FilePolicy  maxMb 0: the server's cap
 */

/**
 * @param {core.App} app
 * @returns {FilePolicy}
 */
function readFilePolicy(app) {
  try {
    const row = app.findRecordById("workspace_settings", SETTINGS_ID);
    return { types: row.getString("file_types") || "standard", maxMb: row.getInt("file_max_mb") };
  } catch (_) {
    return { types: "standard", maxMb: 0 };
  }
}

/**
 * The body's policy, or a 400.
 * @param {JsonObject} body
 * @returns {FilePolicy}
 */
function checkFilePolicy(body) {
  const types = body.types;
  if (typeof types !== "string" || FILE_TYPES.indexOf(types) < 0) throw badRequest(TYPES_MESSAGE);
  const maxMb = body.max_mb;
  if (typeof maxMb !== "number" || !Number.isInteger(maxMb) || maxMb < 1 || maxMb > HARD_CAP_MB) throw badRequest(MAX_MB_MESSAGE);
  return { types: types, maxMb: maxMb };
}

/**
 * Writes the policy; answers what it was before.
 * @param {core.App} txApp
 * @param {FilePolicy} next
 * @returns {FilePolicy}
 */
function writeFilePolicy(txApp, next) {
  const row = settingsRow(txApp);
  const before = { types: row.getString("file_types") || "standard", maxMb: row.getInt("file_max_mb") };
  row.set("file_types", next.types);
  row.set("file_max_mb", next.maxMb);
  txApp.save(row);
  return before;
}

/** @param {number} maxMb */
const tooLargeText = (maxMb) => `The file is larger than the limit of ${maxMb} MB.`;

/**
 * A 413 when a new attachment is larger than the workspace's limit: its declared size, or its stored
 * ciphertext (which a direct call could make larger than it declares).
 * @param {core.App} app
 * @param {core.Record} record
 */
function requireWithinLimit(app, record) {
  const { maxMb } = readFilePolicy(app);
  if (maxMb <= 0) return;
  const limit = maxMb * MIB;
  /** @type {any} */
  const file = record.get("file");
  const stored = file && typeof file.size === "number" ? file.size : 0;
  if (record.getInt("file_size") > limit || stored > limit + CIPHER_OVERHEAD_BYTES) {
    const error = new ApiError(413, tooLargeText(maxMb));
    error.message = tooLargeText(maxMb); // as written (PocketBase would make it a sentence again)
    throw error;
  }
}

module.exports = {
  FILE_TYPES,
  HARD_CAP_MB,
  TYPES_MESSAGE,
  MAX_MB_MESSAGE,
  readFilePolicy,
  checkFilePolicy,
  writeFilePolicy,
  tooLargeText,
  requireWithinLimit,
};
