// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// LibreTranslate and DeepL, the engines an operator can choose instead of Apertium (lib/translation.js).

const { LANGUAGE_LIST_TTL_MS, failed, unsupported, env, send, cached, withoutTrailingSlash } = require(
  `${__hooks}/lib/translation-http.js`,
);

/** @typedef {import("./translation-http.js").Provider} Provider */

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
  return cached(app, `chat.translate.libretranslate.languages ${url}`, LANGUAGE_LIST_TTL_MS, () => {
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

module.exports = { libreLanguages, libreCode, libreTranslate, deeplTranslate };
