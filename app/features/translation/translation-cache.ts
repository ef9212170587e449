/** Translations of incoming messages kept in memory, so a message is translated once per language. */

/**
 * A least-recently-used map of translations: reading or writing an entry makes it the newest, and
 * beyond `max` entries the oldest is evicted.
 */
export class TranslationCache {
  private readonly entries = new Map<string, string>();

  constructor(private readonly max = 500) {
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`TranslationCache: max must be a positive whole number, not ${max}`);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: string): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}

/** The cache key of a text translated into a language (codes never contain a newline). */
export const translationKey = (lang: string, text: string) => `${lang.toUpperCase()}\n${text}`;
