import { api, ApiError } from "~/lib/api.client";
import { TranslationCache, translationKey } from "~/features/translation/translation-cache";

// (loaded when translation is turned on: useTranslation.client.ts)

const cache = new TranslationCache(500);
const MAX_BATCH_ITEMS = 50;
const MAX_BATCH_CHARS = 18_000;

/** The provider cannot translate into the chosen language (the server said so). */
export class TranslationUnavailable extends Error {}

/** Translating failed for another reason (the engine is down, the network failed); the message says why. */
export class TranslationFailed extends Error {}

export function cachedTranslation(language: string, text: string): string | undefined {
  return cache.get(translationKey(language, text));
}

/**
 * Translates what is not cached yet, in batches the server accepts. An unsupported language throws
 * TranslationUnavailable, any other failure TranslationFailed (what was translated before stays cached).
 */
export async function translateTexts(language: string, texts: string[]): Promise<void> {
  const missing = [...new Set(texts.filter((t) => t.trim() && cachedTranslation(language, t) === undefined))];
  let batch: string[] = [];
  let chars = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const current = batch;
    batch = [];
    chars = 0;
    try {
      const { translations } = await api<{ translations: string[] }>("/api/translate", { text: current, targetLang: language });
      current.forEach((text, i) => {
        if (typeof translations[i] === "string") cache.set(translationKey(language, text), translations[i]);
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) throw new TranslationUnavailable(error.message);
      console.warn("Translation failed; showing the original text", error);
      throw new TranslationFailed(error instanceof Error ? error.message : String(error));
    }
  };
  for (const text of missing) {
    const size = Math.min(text.length, 5000);
    if (batch.length >= MAX_BATCH_ITEMS || chars + size > MAX_BATCH_CHARS) await flush();
    batch.push(text.slice(0, 5000));
    chars += size;
  }
  await flush();
}
