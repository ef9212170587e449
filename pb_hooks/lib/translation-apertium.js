// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Apertium APy, the default engine (lib/translation.js).

const { LANGUAGE_LIST_TTL_MS, failed, unsupported, env, send, cached, formBody, withoutTrailingSlash } = require(
  `${__hooks}/lib/translation-http.js`,
);

/** @typedef {import("./translation-http.js").Provider} Provider */

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
  return cached(app, `chat.translate.apertium.pairs ${url}`, LANGUAGE_LIST_TTL_MS, () => {
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
  if (typeof unsupportedAt === "number" && Date.now() - unsupportedAt < LANGUAGE_LIST_TTL_MS) {
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

module.exports = { apertiumPairs, apertiumReaches, apertiumTranslate };
