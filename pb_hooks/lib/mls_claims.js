// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Key-package claims (pb_hooks/mls.pb.js, docs/decisions/0046-delivery-service-checks.md): a member of a
// conversation claims the packages of another member's devices to add them with a Welcome. One package
// per device of that member per conversation, kept in mls_key_claims: the same claim again answers the
// same packages. New packages handed out count against the claimer's limits.

const { forbidden, conflict, tooManyRequests, invalidRecord } = require(`${__hooks}/lib/errors.js`);
const { findMembership, requireChannel } = require(`${__hooks}/lib/channels.js`);
const { takeAll } = require(`${__hooks}/lib/limits.js`);
const { requireMember } = require(`${__hooks}/lib/mls.js`);

// Per claimer: a group conversation of 12 claims 12 users at once. Per claimer and member: a few new
// conversations an hour, so that no one can use up another's one-time packages (10 per device).
const CLAIMER_LIMITS = [
  { windowMs: 10 * 60 * 1000, max: 40 },
  { windowMs: 60 * 60 * 1000, max: 120 },
];
const PAIR_LIMITS = [{ windowMs: 60 * 60 * 1000, max: 5 }];
// A direct conversation's person who is not a member (asked and not answered, declined, left):
// the same answer whichever it is (ADR 0052).
const NOT_ACCEPTED = "This person has not accepted the conversation yet: their devices can be added once they accept.";
const TOO_MANY = "Too many key packages claimed for new conversations. Please wait an hour and try again.";

/** @typedef {{ device: string, data: string, lastResort: boolean }} Claimed */

/** @param {core.Record} r @returns {Claimed} */
const claimedOf = (r) => ({ device: r.getString("device"), data: r.getString("data"), lastResort: r.getBool("last_resort") });

/**
 * The key packages of `userId`'s devices for `channelId`, one per device: those claimed for this
 * conversation before, and for each other device its oldest one-time package (deleted in the same
 * transaction, so no two claims get it) or its last-resort package when none is left.
 * @param {core.App} app
 * @param {{ callerId: string, userId: string, channelId: string }} c
 * @returns {Claimed[]}
 */
function claimKeyPackages(app, c) {
  requireMember(app, c.channelId, c.callerId);
  const channel = requireChannel(app, c.channelId);
  if (!findMembership(app, c.channelId, c.userId)) {
    if (channel.getBool("direct")) throw conflict(NOT_ACCEPTED);
    throw forbidden("This user is not a member of this conversation.");
  }
  /** @type {Claimed[]} */
  let claimed = [];
  app.runInTransaction((txApp) => {
    const before = txApp.findRecordsByFilter("mls_key_claims", "channel = {:channel} && user = {:user}", "created,id", 0, 0, {
      channel: c.channelId,
      user: c.userId,
    });
    claimed = before.map(claimedOf);
    const done = new Set(claimed.map((p) => p.device));
    const all = txApp.findRecordsByFilter("mls_key_packages", "user = {:user}", "created,id", 0, 0, { user: c.userId });
    /** @type {Map<string, core.Record[]>} */
    const byDevice = new Map();
    for (const r of all) {
      const device = r.getString("device");
      if (!done.has(device)) byDevice.set(device, [...(byDevice.get(device) || []), r]);
    }
    if (byDevice.size === 0) return;
    // Only a claim that hands out new packages counts (one's own devices do not).
    if (c.callerId !== c.userId) countClaim(app, c.callerId, c.userId);
    const collection = txApp.findCollectionByNameOrId("mls_key_claims");
    for (const [device, records] of byDevice) {
      const oneTime = records.find((r) => !r.getBool("last_resort"));
      const chosen = oneTime || records.find((r) => r.getBool("last_resort"));
      if (!chosen) continue;
      if (oneTime) txApp.delete(oneTime);
      const record = new Record(collection);
      record.set("channel", c.channelId);
      record.set("user", c.userId);
      record.set("device", device);
      record.set("data", chosen.getString("data"));
      record.set("last_resort", !oneTime);
      try {
        txApp.save(record);
      } catch (err) {
        throw invalidRecord(err, "The key packages could not be claimed.");
      }
      claimed.push(claimedOf(record));
    }
  });
  return claimed;
}

/**
 * Counts one claim of new packages against the claimer's limits, or refuses it (429).
 * @param {core.App} app
 * @param {string} callerId
 * @param {string} userId
 */
function countClaim(app, callerId, userId) {
  const taken = takeAll(app, [
    { key: `mls-claim ${callerId}`, limits: CLAIMER_LIMITS },
    { key: `mls-claim ${callerId} ${userId}`, limits: PAIR_LIMITS },
  ]);
  if (!taken.ok) throw tooManyRequests(TOO_MANY);
}

module.exports = { claimKeyPackages };
