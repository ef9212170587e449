// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Translation for POST /api/chat/translate: request checks, target languages, and the providers
// (Apertium APy, LibreTranslate, DeepL), chosen by environment variables:
//
//   TRANSLATE_PROVIDER      apertium (default) | libretranslate | deepl | none
//   APERTIUM_URL            default http://127.0.0.1:2737
//   LIBRETRANSLATE_URL      e.g. http://127.0.0.1:5000; LIBRETRANSLATE_API_KEY if the server needs one
//   DEEPL_API_KEY           required for deepl; DEEPL_API_URL default https://api-free.deepl.com
//                           (https://api.deepl.com for a Pro key, one not ending in ":fx")
//
// Every provider failure becomes a TranslationError: "unsupported" (the provider cannot translate
// into the language: 422) or "failed" (anything else: 502). Provider answers are cached in
// $app.store() for a few minutes (language lists only, never texts).

const { badRequest } = require(`${__hooks}/lib/errors.js`);
const { characterCount } = require(`${__hooks}/lib/request.js`);
const { TranslationError, unsupported, failed, env, withoutTrailingSlash } = require(`${__hooks}/lib/translation-http.js`);
const { apertiumPairs, apertiumReaches, apertiumTranslate } = require(`${__hooks}/lib/translation-apertium.js`);
const { libreLanguages, libreCode, libreTranslate, deeplTranslate } = require(`${__hooks}/lib/translation-engines.js`);

const MAX_STRINGS = 50;
const MAX_STRING_CHARS = 5000;
const MAX_TOTAL_CHARS = 20000;

const SERVICE_UNAVAILABLE = "Translation service unavailable";
const TEXT_INVALID = `text must be a string or a list of 1 to ${MAX_STRINGS} strings.`;
const TARGET_INVALID = "target_lang must be a supported language code, e.g. EN-US, ES or DE.";

// The DeepL target languages, as app/features/translation/languages.ts lists them
// (tests/unit/translation-tables.test.ts fails when the two disagree).
/** @type {{ [code: string]: string }} */
const LANGUAGE_NAMES = {
  AR: "Arabic",
  BG: "Bulgarian",
  CS: "Czech",
  DA: "Danish",
  DE: "German",
  EL: "Greek",
  "EN-GB": "English (British)",
  "EN-US": "English (American)",
  ES: "Spanish",
  ET: "Estonian",
  FI: "Finnish",
  FR: "French",
  HU: "Hungarian",
  ID: "Indonesian",
  IT: "Italian",
  JA: "Japanese",
  KO: "Korean",
  LT: "Lithuanian",
  LV: "Latvian",
  NB: "Norwegian (Bokmål)",
  NL: "Dutch",
  PL: "Polish",
  "PT-BR": "Portuguese (Brazilian)",
  "PT-PT": "Portuguese (European)",
  RO: "Romanian",
  RU: "Russian",
  SK: "Slovak",
  SL: "Slovenian",
  SV: "Swedish",
  TR: "Turkish",
  UK: "Ukrainian",
  ZH: "Chinese (simplified)",
  "ZH-HANT": "Chinese (traditional)",
};

/** @param {string} code */
function notAvailableMessage(code) {
  return `Translation to ${LANGUAGE_NAMES[code] || code} is not available on this server.`;
}

// An API error whose message reaches the client exactly as written (see lib/errors.js).
/**
 * @param {number} status
 * @param {string} message
 */
function apiError(status, message) {
  const error = new ApiError(status, message);
  error.message = message;
  return error;
}

// ---------------------------------------------------------------------------------------------
// Request

// {texts: string[], target: "ES"} from the request body, or a 400. A single string is a list of one.
/** @param {JsonObject} body */
function readTranslateRequest(body) {
  const text = body.text;
  let texts;
  if (typeof text === "string") {
    texts = [text];
  } else if (Array.isArray(text)) {
    texts = [];
    for (let i = 0; i < text.length; i++) {
      texts.push(text[i]);
    }
    if (texts.length === 0 || texts.length > MAX_STRINGS) {
      throw badRequest(TEXT_INVALID);
    }
    for (const item of texts) {
      if (typeof item !== "string") {
        throw badRequest(TEXT_INVALID);
      }
    }
  } else {
    throw badRequest(TEXT_INVALID);
  }

  let total = 0;
  for (const item of texts) {
    const count = characterCount(item);
    if (count > MAX_STRING_CHARS) {
      throw badRequest(`Each text may have at most ${MAX_STRING_CHARS} characters.`);
    }
    total += count;
  }
  if (total > MAX_TOTAL_CHARS) {
    throw badRequest(`The texts may have at most ${MAX_TOTAL_CHARS} characters in total.`);
  }

  if (typeof body.target_lang !== "string") {
    throw badRequest(TARGET_INVALID);
  }
  const target = body.target_lang.trim().toUpperCase();
  if (!Object.prototype.hasOwnProperty.call(LANGUAGE_NAMES, target)) {
    throw badRequest(TARGET_INVALID);
  }

  return { texts: texts, target: target };
}

// ---------------------------------------------------------------------------------------------

/** @typedef {import("./translation-http.js").Provider} Provider */

/** @type {{ [name: string]: Provider }} */
const PROVIDERS = {
  apertium: apertiumTranslate,
  libretranslate: libreTranslate,
  deepl: deeplTranslate,
  none: () => {
    throw unsupported("no translation provider configured");
  },
};

/** @returns {string} */
function providerName() {
  return env("TRANSLATE_PROVIDER", "apertium").toLowerCase();
}

// Our codes the configured provider can translate into, in LANGUAGE_NAMES order, from the engine's
// own list (Apertium's /listPairs, LibreTranslate's /languages), cached like the translations use it.
// Throws a "failed" TranslationError when the engine cannot be asked.
/**
 * @param {core.App} app
 * @returns {string[]}
 */
function availableTargets(app) {
  const name = providerName();
  const codes = Object.keys(LANGUAGE_NAMES);
  if (name === "apertium") {
    const pairs = apertiumPairs(app, withoutTrailingSlash(env("APERTIUM_URL", "http://127.0.0.1:2737")));
    return codes.filter((code) => apertiumReaches(pairs, code));
  }
  if (name === "libretranslate") {
    const url = withoutTrailingSlash(env("LIBRETRANSLATE_URL", ""));
    if (url === "") {
      throw failed("LIBRETRANSLATE_URL is not set");
    }
    const offered = libreLanguages(app, url);
    return codes.filter((code) => libreCode(offered, code) !== undefined);
  }
  if (name === "deepl") {
    return env("DEEPL_API_KEY", "") === "" ? [] : codes;
  }
  if (name === "none") {
    return [];
  }
  throw failed(`unknown TRANSLATE_PROVIDER "${name}"`);
}

// Translations of texts, one per text in the same order. Blank texts are returned as they are
// and never sent. Throws a TranslationError.
/**
 * @param {core.App} app
 * @param {string[]} texts
 * @param {string} target
 * @returns {string[]}
 */
function translateTexts(app, texts, target) {
  const name = providerName();
  const provider = PROVIDERS[name];
  if (!provider) {
    throw failed(`unknown TRANSLATE_PROVIDER "${name}"`);
  }

  /** @type {number[]} */
  const indexes = [];
  /** @type {string[]} */
  const toSend = [];
  texts.forEach((text, index) => {
    if (text.trim() !== "") {
      indexes.push(index);
      toSend.push(text);
    }
  });

  const results = texts.slice();
  if (toSend.length > 0) {
    const translated = provider(app, toSend, target);
    indexes.forEach((index, i) => {
      results[index] = translated[i];
    });
  }
  return results;
}

module.exports = {
  MAX_STRINGS,
  MAX_STRING_CHARS,
  MAX_TOTAL_CHARS,
  SERVICE_UNAVAILABLE,
  LANGUAGE_NAMES,
  TranslationError,
  apiError,
  availableTargets,
  notAvailableMessage,
  readTranslateRequest,
  translateTexts,
};
