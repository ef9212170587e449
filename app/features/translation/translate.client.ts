import { api, ApiError } from "~/lib/api.client";
import { TranslationCache, translationKey } from "~/features/translation/translation-cache";

// (loaded when translation is turned on: useTranslation.client.ts)

const MAX_BATCH_ITEMS = 50;
const MAX_BATCH_CHARS = 18_000;
/** The longest text sent: a longer message is translated (and its translation kept) by its beginning. */
const MAX_TEXT_CHARS = 5000;
/**
 * A text the engine failed to translate is not asked for again before this long: a failing engine
 * (down, out of quota) is not sent every earlier message again with each new one.
 */
export const RETRY_AFTER_MS = 60_000;

/** The provider cannot translate into the chosen language (the server said so). */
export class TranslationUnavailable extends Error {}

/** Translating failed for another reason (the engine is down, the network failed); the message says why. */
export class TranslationFailed extends Error {}

/** Asks the server to translate a batch; answers the translations in the same order. */
export type AskTranslations = (texts: string[], language: string) => Promise<string[]>;

const askServer: AskTranslations = async (texts, language) =>
  (await api<{ translations: string[] }>("/api/translate", { text: texts, targetLang: language })).translations;

/** A translator: its cache, the texts that failed lately, and how it asks (the server, or a test's engine). */
export function createTranslator(ask: AskTranslations = askServer, now: () => number = Date.now) {
  const cache = new TranslationCache(500);
  const failedAt = new Map<string, number>();
  /** Texts asked for and not answered yet: a call meanwhile waits for them instead of asking again. */
  const onItsWay = new Map<string, Promise<unknown>>();
  const keyOf = (language: string, text: string) => translationKey(language, text.slice(0, MAX_TEXT_CHARS));
  const cachedTranslation = (language: string, text: string) => cache.get(keyOf(language, text));
  const failedLately = (key: string) => {
    const at = failedAt.get(key);
    if (at === undefined) return false;
    if (now() - at < RETRY_AFTER_MS) return true;
    failedAt.delete(key);
    return false;
  };

  /** Asks for one batch and keeps its translations (a failure is noted for each of its texts). */
  async function askAndKeep(language: string, texts: string[]): Promise<void> {
    let translations: string[];
    try {
      translations = await ask(texts, language);
    } catch (error) {
      for (const text of texts) failedAt.set(keyOf(language, text), now());
      if (error instanceof ApiError && error.status === 422) throw new TranslationUnavailable(error.message);
      console.warn("Translation failed; showing the original text", error);
      throw new TranslationFailed(error instanceof Error ? error.message : String(error));
    }
    texts.forEach((text, i) => {
      if (typeof translations[i] === "string") cache.set(keyOf(language, text), translations[i]);
    });
  }

  /**
   * Translates what is neither cached nor failed lately, in batches the server accepts. An unsupported
   * language throws TranslationUnavailable, any other failure TranslationFailed (what was translated
   * before stays cached; the failed batch is not asked again before RETRY_AFTER_MS). A text already
   * asked for by an earlier call is waited for, not asked again (that call says how it went).
   */
  async function translateTexts(language: string, texts: string[]): Promise<void> {
    const wanted = texts.filter((t) => t.trim() && cachedTranslation(language, t) === undefined);
    const candidates = [...new Set(wanted.map((t) => t.slice(0, MAX_TEXT_CHARS)))].filter((t) => !failedLately(keyOf(language, t)));
    const earlier = new Set(candidates.map((t) => onItsWay.get(keyOf(language, t))).filter((asked) => asked !== undefined));
    const missing = candidates.filter((t) => !onItsWay.has(keyOf(language, t)));
    let batch: string[] = [];
    let chars = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const current = batch;
      batch = [];
      chars = 0;
      const keys = current.map((text) => keyOf(language, text));
      const asked = askAndKeep(language, current);
      for (const key of keys) onItsWay.set(key, asked);
      try {
        await asked;
      } finally {
        for (const key of keys) if (onItsWay.get(key) === asked) onItsWay.delete(key);
      }
    };
    for (const text of missing) {
      if (batch.length >= MAX_BATCH_ITEMS || chars + text.length > MAX_BATCH_CHARS) await flush();
      batch.push(text);
      chars += text.length;
    }
    await flush();
    await Promise.all([...earlier].map((asked) => asked.catch(() => undefined)));
  }

  return { cachedTranslation, translateTexts };
}

const translator = createTranslator();
export const { cachedTranslation, translateTexts } = translator;
