// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// What every translation engine shares: the TranslationError a failure becomes, the environment,
// HTTP requests and the app-store cache of language lists (lib/translation.js).

// ---------------------------------------------------------------------------------------------
// Errors

/**
 * @constructor
 * @param {"unsupported" | "failed"} kind
 * @param {string} detail
 */
function TranslationError(kind, detail) {
  this.kind = kind; // "unsupported" | "failed"
  this.detail = detail;
}

/** @param {string} detail */
function unsupported(detail) {
  return new TranslationError("unsupported", detail);
}

/** @param {string} detail */
function failed(detail) {
  return new TranslationError("failed", detail);
}

// ---------------------------------------------------------------------------------------------
// HTTP

/**
 * @param {string} name
 * @param {string} fallback
 */
function env(name, fallback) {
  const value = String($os.getenv(name) || "").trim();
  return value === "" ? fallback : value;
}

/** @param {string} url */
function withoutTrailingSlash(url) {
  return url.replace(/\/+$/, "");
}

/** @param {{ [name: string]: string }} fields */
function formBody(fields) {
  return Object.keys(fields)
    .map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(fields[key])}`)
    .join("&");
}

// {status, json} of one request; json is undefined when the body is not JSON.
// Connection failures and timeouts throw a "failed" TranslationError.
/**
 * @param {Parameters<typeof $http.send>[0]} config
 * @returns {{ status: number, json: any }}
 */
function send(config) {
  let res;
  try {
    res = $http.send(config);
  } catch (err) {
    throw failed(`${config.method || "GET"} ${config.url}: ${err}`);
  }
  let json;
  try {
    json = JSON.parse(toString(res.body));
  } catch (_) {
    json = undefined;
  }
  return { status: res.statusCode, json: json };
}

// A value cached in the app store as JSON for ttlMs, or load() again.
/**
 * @template T
 * @param {core.App} app
 * @param {string} key
 * @param {number} ttlMs
 * @param {() => T} load
 * @returns {T}
 */
function cached(app, key, ttlMs, load) {
  const raw = app.store().get(key);
  if (typeof raw === "string" && raw !== "") {
    try {
      const entry = JSON.parse(raw);
      if (entry && Date.now() - entry.at < ttlMs) {
        return entry.value;
      }
    } catch (_) {
      // load again
    }
  }
  const value = load();
  app.store().set(key, JSON.stringify({ at: Date.now(), value: value }));
  return value;
}

// A translation engine:
/**
 * @typedef {(app: core.App, texts: string[], target: string) => string[]} Provider
 * texts are never blank; answers one translation per text, in the same order
 */

// Language lists (installed pairs, offered codes) are asked again after this long.
const LANGUAGE_LIST_TTL_MS = 5 * 60 * 1000;

module.exports = { LANGUAGE_LIST_TTL_MS, TranslationError, unsupported, failed, env, withoutTrailingSlash, formBody, send, cached };
