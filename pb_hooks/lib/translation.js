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

const MAX_STRINGS = 50;
const MAX_STRING_CHARS = 5000;
const MAX_TOTAL_CHARS = 20000;

const SERVICE_UNAVAILABLE = "Translation service unavailable";
const TEXT_INVALID = `text must be a string or a list of 1 to ${MAX_STRINGS} strings.`;
const TARGET_INVALID = "target_lang must be a supported language code, e.g. EN-US, ES or DE.";

// The DeepL target languages, as app/features/translation/languages.ts lists them (keep both in step).
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

// ---------------------------------------------------------------------------------------------
// Apertium APy. Language codes are ISO 639-3 ("eng"), some with a variant ("por_BR", "eng_US").
// APy translates only along installed pairs, so a missing pair is bridged through one middle
// language (English to Portuguese as eng→spa→por). It cannot detect the source language unless
// CLD2 or analyser modes are installed: /identifyLang is asked, and English assumed otherwise.

/** @type {{ [code: string]: string[] }} */
const APERTIUM_CODES = {
  AR: ["ara"],
  BG: ["bul"],
  CS: ["ces"],
  DA: ["dan"],
  DE: ["deu"],
  EL: ["ell"],
  "EN-GB": ["eng_GB", "eng"],
  "EN-US": ["eng_US", "eng"],
  ES: ["spa"],
  ET: ["est"],
  FI: ["fin"],
  FR: ["fra"],
  HU: ["hun"],
  ID: ["ind"],
  IT: ["ita"],
  JA: ["jpn"],
  KO: ["kor"],
  LT: ["lit"],
  LV: ["lav"],
  NB: ["nob"],
  NL: ["nld"],
  PL: ["pol"],
  "PT-BR": ["por_BR", "por"],
  "PT-PT": ["por"],
  RO: ["ron"],
  RU: ["rus"],
  SK: ["slk"],
  SL: ["slv"],
  SV: ["swe"],
  TR: ["tur"],
  UK: ["ukr"],
  ZH: ["zho"],
  "ZH-HANT": ["zho_Hant"],
};
const APERTIUM_DEFAULT_SOURCE = "eng";
const APERTIUM_MAX_HOPS = 2; // at most one middle language: every hop costs quality
const APERTIUM_PAIRS_TTL_MS = 5 * 60 * 1000;
const APERTIUM_DETECT_CHARS = 1000;

/** @param {string} code */
function baseCode(code) {
  return String(code).split("_")[0];
}

// [["eng", "spa"], ...] from /listPairs, cached.
/**
 * @param {core.App} app
 * @param {string} url
 * @returns {string[][]}
 */
function apertiumPairs(app, url) {
  return cached(app, `chat.translate.apertium.pairs ${url}`, APERTIUM_PAIRS_TTL_MS, () => {
    const res = send({ url: `${url}/listPairs`, method: "GET", timeout: 5 });
    const data = res.json && res.json.responseData;
    if (res.status !== 200 || !Array.isArray(data)) {
      throw failed(`listPairs answered ${res.status}`);
    }
    const pairs = [];
    for (const pair of data) {
      if (pair && typeof pair.sourceLanguage === "string" && typeof pair.targetLanguage === "string") {
        pairs.push([pair.sourceLanguage, pair.targetLanguage]);
      }
    }
    return pairs;
  });
}

// The shortest list of languages [source, ..., target] joined by installed pairs, trying the
// target codes in order of preference; null when there is none within APERTIUM_MAX_HOPS.
/**
 * @param {string[][]} pairs
 * @param {string} source
 * @param {string[]} targets
 * @returns {string[] | null}
 */
function apertiumRoute(pairs, source, targets) {
  /** @type {{ [language: string]: string[] }} */
  const next = {};
  for (const pair of pairs) {
    (next[pair[0]] = next[pair[0]] || []).push(pair[1]);
  }
  for (const target of targets) {
    let frontier = [[source]];
    for (let hop = 0; hop < APERTIUM_MAX_HOPS; hop++) {
      const following = [];
      for (const path of frontier) {
        const last = path[path.length - 1];
        for (const language of next[last] || []) {
          if (path.indexOf(language) !== -1) {
            continue;
          }
          const longer = path.concat([language]);
          if (language === target) {
            return longer;
          }
          following.push(longer);
        }
      }
      frontier = following;
    }
  }
  return null;
}

// The language APy identifies with most confidence, or "" when it cannot tell.
/**
 * @param {core.App} app
 * @param {string} url
 * @param {string} text
 * @returns {string}
 */
function apertiumIdentify(app, url, text) {
  const flag = `chat.translate.apertium.noIdentify ${url}`;
  const unsupportedAt = app.store().get(flag);
  if (typeof unsupportedAt === "number" && Date.now() - unsupportedAt < APERTIUM_PAIRS_TTL_MS) {
    return "";
  }
  let res;
  try {
    res = send({
      url: `${url}/identifyLang`,
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: formBody({ q: Array.from(text).slice(0, APERTIUM_DETECT_CHARS).join("") }),
      timeout: 5,
    });
  } catch (_) {
    return ""; // the translation itself will tell whether APy is reachable
  }
  if (res.status === 404 || res.status === 400) {
    app.store().set(flag, Date.now());
    return "";
  }
  if (res.status !== 200 || !res.json || typeof res.json !== "object" || Array.isArray(res.json)) {
    return "";
  }
  let best = "";
  let bestScore = 0;
  for (const code of Object.keys(res.json)) {
    const score = Number(res.json[code]);
    if (score > bestScore) {
      best = code;
      bestScore = score;
    }
  }
  return best;
}

/**
 * @param {string} url
 * @param {string} text
 * @param {string} source
 * @param {string} target
 * @returns {string}
 */
function apertiumTranslateOnce(url, text, source, target) {
  const res = send({
    url: `${url}/translate`,
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: formBody({ q: text, langpair: `${source}|${target}`, markUnknown: "no", format: "txt" }),
    timeout: 20,
  });
  const data = res.json && res.json.responseData;
  if (res.status !== 200 || !data || typeof data.translatedText !== "string") {
    throw failed(`translate ${source}|${target} answered ${res.status}`);
  }
  return data.translatedText;
}

// Whether some installed pair translates into one of the target's codes.
/**
 * @param {string[][]} pairs
 * @param {string} target
 */
function apertiumReaches(pairs, target) {
  const targets = APERTIUM_CODES[target] || [];
  return targets.some((code) => pairs.some((pair) => pair[1] === code));
}

/** @type {Provider} */
function apertiumTranslate(app, texts, target) {
  const url = withoutTrailingSlash(env("APERTIUM_URL", "http://127.0.0.1:2737"));
  const pairs = apertiumPairs(app, url);
  const targets = APERTIUM_CODES[target] || [];

  // The language must be reachable at all (from any installed language), else 422.
  if (!apertiumReaches(pairs, target)) {
    throw unsupported(`no Apertium pair into ${targets.join("/")}`);
  }

  return texts.map((text) => {
    const source = apertiumIdentify(app, url, text) || APERTIUM_DEFAULT_SOURCE;
    if (baseCode(source) === baseCode(targets[targets.length - 1])) {
      return text;
    }
    const route = apertiumRoute(pairs, source, targets);
    if (!route) {
      return text; // nothing leads from this source language to the target: left as it is
    }
    let result = text;
    for (let i = 0; i + 1 < route.length; i++) {
      result = apertiumTranslateOnce(url, result, route[i], route[i + 1]);
    }
    return result;
  });
}

// ---------------------------------------------------------------------------------------------
// LibreTranslate: lower-case ISO 639-1 codes, some with a script or region ("zh-Hans", "pt-BR").

/** @type {{ [code: string]: string[] }} */
const LIBRETRANSLATE_CODES = {
  "EN-GB": ["en"],
  "EN-US": ["en"],
  "PT-BR": ["pt-BR", "pt"],
  "PT-PT": ["pt"],
  ZH: ["zh-Hans", "zh"],
  "ZH-HANT": ["zh-Hant", "zt"],
};

// The language codes LibreTranslate offers (its /languages), cached.
/**
 * @param {core.App} app
 * @param {string} url
 * @returns {string[]}
 */
function libreLanguages(app, url) {
  return cached(app, `chat.translate.libretranslate.languages ${url}`, APERTIUM_PAIRS_TTL_MS, () => {
    const res = send({ url: `${url}/languages`, method: "GET", timeout: 10 });
    if (res.status !== 200 || !Array.isArray(res.json)) {
      throw failed(`languages answered ${res.status}`);
    }
    return res.json.filter((language) => language && typeof language.code === "string").map((language) => language.code);
  });
}

// LibreTranslate's code for one of ours, or undefined when it has none.
/**
 * @param {string[]} codes
 * @param {string} target
 * @returns {string | undefined}
 */
function libreCode(codes, target) {
  const candidates = LIBRETRANSLATE_CODES[target] || [target.toLowerCase()];
  return candidates.find((candidate) => codes.indexOf(candidate) !== -1);
}

/** @type {Provider} */
function libreTranslate(app, texts, target) {
  const url = withoutTrailingSlash(env("LIBRETRANSLATE_URL", ""));
  if (url === "") {
    throw failed("LIBRETRANSLATE_URL is not set");
  }
  const apiKey = env("LIBRETRANSLATE_API_KEY", "");

  const code = libreCode(libreLanguages(app, url), target);
  if (!code) {
    throw unsupported(`LibreTranslate has no ${(LIBRETRANSLATE_CODES[target] || [target.toLowerCase()]).join("/")}`);
  }

  /** @type {JsonObject} */
  const payload = { q: texts, source: "auto", target: code, format: "text" };
  if (apiKey !== "") {
    payload.api_key = apiKey;
  }
  const res = send({
    url: `${url}/translate`,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(payload),
    timeout: 60,
  });
  const translated = res.json && res.json.translatedText;
  if (res.status !== 200 || !Array.isArray(translated) || translated.length !== texts.length) {
    throw failed(`translate answered ${res.status}`);
  }
  return translated.map((text) => String(text));
}

// ---------------------------------------------------------------------------------------------
// DeepL: takes our codes as they are.

/** @type {Provider} */
function deeplTranslate(app, texts, target) {
  const apiKey = env("DEEPL_API_KEY", "");
  if (apiKey === "") {
    throw failed("DEEPL_API_KEY is not set");
  }
  // DeepL Free keys end in ":fx" and work only on the free endpoint, Pro keys only on the other
  let url = withoutTrailingSlash(env("DEEPL_API_URL", /:fx$/.test(apiKey) ? "https://api-free.deepl.com" : "https://api.deepl.com"));
  if (!/\/v2\/translate$/.test(url)) {
    url += "/v2/translate";
  }

  const res = send({
    url: url,
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `DeepL-Auth-Key ${apiKey}` },
    body: JSON.stringify({ text: texts, target_lang: target }),
    timeout: 60,
  });
  const translations = res.json && res.json.translations;
  if (res.status !== 200 || !Array.isArray(translations) || translations.length !== texts.length) {
    throw failed(`translate answered ${res.status}`);
  }
  return translations.map((item) => String((item && item.text) || ""));
}

// ---------------------------------------------------------------------------------------------

/**
 * @typedef {(app: core.App, texts: string[], target: string) => string[]} Provider
 * texts are never blank; answers one translation per text, in the same order
 */

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
