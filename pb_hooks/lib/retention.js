// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Retention settings (docs/decisions/0065-retention.md): how long the workspace keeps messages (0 is
// forever), whether channel admins may set a shorter period for their channel, whether pinned messages
// are kept. The sweep that applies them is Go (pocketbase/retention.go); it reads the same fields.

const { badRequest, forbidden } = require(`${__hooks}/lib/errors.js`);
const { SETTINGS_ID, settingsRow } = require(`${__hooks}/lib/workspace.js`);

const MAX_DAYS = 36500;
const DAYS_MESSAGE = `days must be 0 (forever) or a whole number of days from 1 to ${MAX_DAYS}.`;
const NOT_ALLOWED = "The workspace does not let channel admins set how long messages are kept.";
const LONGER = "A channel can only keep messages for a shorter time than the workspace.";

/**
 * @typedef {{ days: number, perChannel: boolean, keepPinned: boolean }} WorkspaceRetention
 */

/**
 * A number of days, or a 400: 0 (forever) or a whole number from 1 to MAX_DAYS.
 * @param {unknown} value
 * @returns {number}
 */
function checkDays(value) {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_DAYS) throw badRequest(DAYS_MESSAGE);
  return value;
}

/**
 * A boolean field of the body, or a 400 (absent: the fallback).
 * @param {JsonObject} body
 * @param {string} name
 * @param {boolean} fallback
 */
function checkFlag(body, name, fallback) {
  const value = body[name];
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw badRequest(`${name} must be true or false.`);
  return value;
}

/**
 * @param {core.App} app
 * @returns {WorkspaceRetention}
 */
function readRetention(app) {
  try {
    const row = app.findRecordById("workspace_settings", SETTINGS_ID);
    return {
      days: row.getInt("retention_days"),
      perChannel: row.getBool("retention_per_channel"),
      keepPinned: row.getBool("retention_keep_pinned"),
    };
  } catch (_) {
    return { days: 0, perChannel: false, keepPinned: false };
  }
}

/**
 * Writes the workspace's retention; answers what it was before.
 * @param {core.App} txApp
 * @param {WorkspaceRetention} next
 * @returns {WorkspaceRetention}
 */
function writeRetention(txApp, next) {
  const row = settingsRow(txApp);
  const before = {
    days: row.getInt("retention_days"),
    perChannel: row.getBool("retention_per_channel"),
    keepPinned: row.getBool("retention_keep_pinned"),
  };
  row.set("retention_days", next.days);
  row.set("retention_per_channel", next.perChannel);
  row.set("retention_keep_pinned", next.keepPinned);
  txApp.save(row);
  return before;
}

/**
 * A channel admin's choice for their channel, or a 4xx: refused when the workspace does not allow it
 * (403), and when it is not shorter than the workspace's period (400). 0 goes back to the workspace's.
 * @param {WorkspaceRetention} workspace
 * @param {number} days
 */
function checkChannelDays(workspace, days) {
  if (!workspace.perChannel) throw forbidden(NOT_ALLOWED);
  if (days > 0 && workspace.days > 0 && days >= workspace.days) throw badRequest(LONGER);
}

module.exports = {
  MAX_DAYS,
  DAYS_MESSAGE,
  NOT_ALLOWED,
  LONGER,
  checkDays,
  checkFlag,
  readRetention,
  writeRetention,
  checkChannelDays,
};
