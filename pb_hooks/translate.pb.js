// @ts-check
/// <reference path="../types/hooks.d.ts" />

// POST /api/chat/translate (signed-in users)
//
// Translates incoming messages for the reader (the spec's translate-text). The provider is chosen
// by environment variables (see lib/translation.js); texts are sent to it and never stored.
//
// Body: {text: string | string[], target_lang: "ES" | "EN-US" | "PT-BR" | ...}
//       at most 50 strings, each at most 5,000 characters, 20,000 in total
// Answer: {"translations": [{"text": "..."}, ...]}, one per input string in the same order
//         (a single string gives a list of one); text already in the target language comes back
//         unchanged.
// Errors: 401 "Not authenticated", 400 for a malformed body (the message names the problem),
//         422 "Translation to <language> is not available on this server.",
//         502 "Translation service unavailable"
routerAdd(
  "POST",
  "/api/chat/translate",
  (e) => {
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { SERVICE_UNAVAILABLE, TranslationError, apiError, notAvailableMessage, readTranslateRequest, translateTexts } = require(
      `${__hooks}/lib/translation.js`,
    );

    const user = requireUser(e, "Not authenticated");
    const request = readTranslateRequest(readJsonObject(e));

    let translated;
    try {
      translated = translateTexts(e.app, request.texts, request.target);
    } catch (err) {
      if (err instanceof TranslationError && err.kind === "unsupported") {
        throw apiError(422, notAvailableMessage(request.target));
      }
      const detail = err instanceof TranslationError ? err.detail : String(err);
      e.app.logger().warn("Translation failed", "user", user.id, "target", request.target, "error", detail);
      throw apiError(502, SERVICE_UNAVAILABLE);
    }

    return e.json(200, { translations: translated.map((text) => ({ text: text })) });
  },
  $apis.bodyLimit(256 * 1024),
); // 20,000 characters, even if every one is JSON-escaped, and a little more

// GET /api/chat/translate/languages (signed-in users)
//
// The target languages the configured engine can translate into, asked of the engine itself
// (Apertium's /listPairs, LibreTranslate's /languages; every language for DeepL, none when off) and
// cached for a few minutes. The Translate menu greys out the others.
//
// Answer: {"languages": ["EN-GB", "EN-US", "ES", ...]} in our codes (see lib/translation.js)
// Errors: 401 "Not authenticated", 502 "Translation service unavailable" when the engine cannot be asked
routerAdd("GET", "/api/chat/translate/languages", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { SERVICE_UNAVAILABLE, TranslationError, apiError, availableTargets } = require(`${__hooks}/lib/translation.js`);

  const user = requireUser(e, "Not authenticated");
  try {
    return e.json(200, { languages: availableTargets(e.app) });
  } catch (err) {
    const detail = err instanceof TranslationError ? err.detail : String(err);
    e.app.logger().warn("Translation languages unavailable", "user", user.id, "error", detail);
    throw apiError(502, SERVICE_UNAVAILABLE);
  }
});
