// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// What one account may keep in mls_key_packages (docs/decisions/0068-caps-per-account.md): key packages
// for at most MAX_DEVICES devices, each with at most MAX_ONE_TIME_PER_DEVICE one-time packages waiting
// (and its one last-resort package). Before, any number of device ids was accepted, 51 packages each
// per request: one account added 40.9 MB in 30 s. A device that sent nothing for IDLE_DAYS no longer
// holds a place: its packages go when another device of the account uploads (it sends new ones itself
// when it comes back, pool.client.ts). A browser keeps 10 to 24 one-time packages (POOL and LOW there).

const { conflict } = require(`${__hooks}/lib/errors.js`);

const MAX_DEVICES = 20;
const MAX_ONE_TIME_PER_DEVICE = 60;
const IDLE_DAYS = 30;

const TOO_MANY_DEVICES = `This account already has keys for ${MAX_DEVICES} devices, the most it can have. A device that has not been used for ${IDLE_DAYS} days gives up its place.`;
const TOO_MANY_PACKAGES = `This device already has key packages waiting (at most ${MAX_ONE_TIME_PER_DEVICE}). Send more once some have been used.`;

/**
 * Inside the upload's transaction, before `adding` one-time packages of `device` are saved: drops
 * the packages of the account's idle devices, then refuses (409, nothing changed) a device beyond
 * MAX_DEVICES or a pool beyond MAX_ONE_TIME_PER_DEVICE.
 * @param {core.App} txApp
 * @param {string} userId
 * @param {string} device
 * @param {number} adding
 */
function checkPackageCaps(txApp, userId, device, adding) {
  const all = txApp.findRecordsByFilter("mls_key_packages", "user = {:user}", "", 0, 0, { user: userId });
  /** @type {Map<string, { newest: string, records: core.Record[] }>} */
  const devices = new Map();
  for (const record of all) {
    const id = record.getString("device");
    const created = record.getString("created");
    const entry = devices.get(id) || { newest: "", records: [] };
    entry.records.push(record);
    if (created > entry.newest) entry.newest = created;
    devices.set(id, entry);
  }
  const idleBefore = new DateTime().addDate(0, 0, -IDLE_DAYS).string();
  for (const [id, entry] of devices) {
    if (id === device || entry.newest >= idleBefore) continue;
    for (const record of entry.records) txApp.delete(record);
    devices.delete(id);
  }
  const own = devices.get(device);
  if (!own && devices.size >= MAX_DEVICES) throw conflict(TOO_MANY_DEVICES);
  const waiting = own ? own.records.filter((r) => !r.getBool("last_resort") && r.getString("created") >= idleBefore).length : 0;
  if (waiting + adding > MAX_ONE_TIME_PER_DEVICE) throw conflict(TOO_MANY_PACKAGES);
}

module.exports = { MAX_DEVICES, MAX_ONE_TIME_PER_DEVICE, TOO_MANY_DEVICES, TOO_MANY_PACKAGES, checkPackageCaps };
