// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Sliding-window counters kept in the app store (per process; they start empty after a restart),
// for the limits PocketBase's own rate limiter cannot express: per account, per channel, per
// recipient address.
//
// A counter is a list of timestamps under one store key. `limits` is a list of
// {windowMs, max}: at most `max` events within any `windowMs`.

const STORE_PREFIX = "chat.limit ";

/** @typedef {{ windowMs: number, max: number }} Limit */

/** @param {Limit[]} limits */
function longestWindow(limits) {
  return limits.reduce((longest, limit) => Math.max(longest, limit.windowMs), 0);
}

/**
 * @param {unknown} old
 * @param {number} now
 * @param {number} windowMs
 * @returns {number[]}
 */
function recentTimes(old, now, windowMs) {
  if (typeof old !== "string" || old === "") {
    return [];
  }
  try {
    const times = JSON.parse(old);
    return Array.isArray(times) ? times.filter((/** @type {unknown} */ time) => typeof time === "number" && now - time < windowMs) : [];
  } catch (_) {
    return [];
  }
}

// Counts one event under `key` and answers its timestamp (to give it back with `release`), or
// answers 0 and counts nothing when any limit is already reached. Atomic: the store holds its lock
// while the callback runs.
/**
 * @param {core.App} app
 * @param {string} key
 * @param {Limit[]} limits
 * @returns {number}
 */
function take(app, key, limits) {
  let taken = 0;
  app.store().setFunc(STORE_PREFIX + key, (/** @type {unknown} */ old) => {
    const now = Date.now();
    const times = recentTimes(old, now, longestWindow(limits));
    const allowed = limits.every((limit) => times.filter((time) => now - time < limit.windowMs).length < limit.max);
    if (allowed) {
      // unique (and ascending) within the key, so that release removes exactly this event
      taken = times.length > 0 ? Math.max(now, times[times.length - 1] + 1) : now;
      times.push(taken);
    }
    return JSON.stringify(times);
  });
  return taken;
}

// Gives back an event counted by `take` (the attempt turned out not to count, or a later limit
// refused it).
/**
 * @param {core.App} app
 * @param {string} key
 * @param {number} taken
 */
function release(app, key, taken) {
  if (!taken) {
    return;
  }
  app.store().setFunc(STORE_PREFIX + key, (/** @type {unknown} */ old) => {
    const times = recentTimes(old, Date.now(), Number.MAX_SAFE_INTEGER);
    const index = times.indexOf(taken);
    if (index !== -1) {
      times.splice(index, 1);
    }
    return JSON.stringify(times);
  });
}

// How long until `key` may count one more event under `limits` (0: now).
/**
 * @param {core.App} app
 * @param {string} key
 * @param {Limit[]} limits
 * @returns {number} milliseconds
 */
function waitMs(app, key, limits) {
  const now = Date.now();
  const times = recentTimes(app.store().get(STORE_PREFIX + key), now, longestWindow(limits)).sort((a, b) => a - b);
  return limits.reduce((longest, limit) => {
    const inWindow = times.filter((time) => now - time < limit.windowMs);
    if (inWindow.length < limit.max) {
      return longest;
    }
    // the window frees a place when its oldest events leave it, until one fewer than max remain
    return Math.max(longest, inWindow[inWindow.length - limit.max] + limit.windowMs - now);
  }, 0);
}

// Takes one event under every {key, limits} entry, or none of them. Answers {ok: true, releaseAll}
// (releaseAll gives them all back), or {ok: false, failedAt} with the index of the first entry
// whose limit is reached.
/**
 * @param {core.App} app
 * @param {{ key: string, limits: Limit[] }[]} entries
 * @returns {{ ok: boolean, failedAt: number, releaseAll: () => void }}
 */
function takeAll(app, entries) {
  /** @type {{ key: string, stamp: number }[]} */
  const taken = [];
  for (let i = 0; i < entries.length; i++) {
    const stamp = take(app, entries[i].key, entries[i].limits);
    if (!stamp) {
      taken.forEach((t) => release(app, t.key, t.stamp));
      return { ok: false, failedAt: i, releaseAll: () => {} };
    }
    taken.push({ key: entries[i].key, stamp: stamp });
  }
  return { ok: true, failedAt: -1, releaseAll: () => taken.forEach((t) => release(app, t.key, t.stamp)) };
}

module.exports = { take, release, takeAll, waitMs };
