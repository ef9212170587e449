import { describe, expect, it } from "vitest";
import { TranslationCache, translationKey } from "~/features/translation/translation-cache";

const fill = (cache: TranslationCache, count: number) => {
  for (let i = 0; i < count; i++) cache.set(`k${i}`, `v${i}`);
};

describe("TranslationCache", () => {
  it("holds exactly 500 entries by default, then evicts the oldest", () => {
    const cache = new TranslationCache();
    fill(cache, 500);
    expect(cache.size).toBe(500);
    expect(cache.get("k0")).toBe("v0");
    expect(cache.get("k499")).toBe("v499");

    const fresh = new TranslationCache();
    fill(fresh, 501);
    expect(fresh.size).toBe(500);
    expect(fresh.get("k0")).toBeUndefined();
    expect(fresh.get("k1")).toBe("v1");
    expect(fresh.get("k500")).toBe("v500");
  });

  it("treats a read as a use: the least recently used entry goes first", () => {
    const cache = new TranslationCache();
    fill(cache, 500);
    expect(cache.get("k0")).toBe("v0");
    cache.set("new", "value");
    expect(cache.size).toBe(500);
    expect(cache.get("k0")).toBe("v0");
    expect(cache.get("k1")).toBeUndefined();
  });

  it("replaces a value without growing, and refreshes it", () => {
    const cache = new TranslationCache(3);
    cache.set("a", "1");
    cache.set("b", "2");
    cache.set("c", "3");
    cache.set("a", "one");
    expect(cache.size).toBe(3);
    cache.set("d", "4");
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe("one");
    expect(cache.get("missing")).toBeUndefined();
  });

  it("keeps an empty translation", () => {
    const cache = new TranslationCache(1);
    cache.set("a", "");
    expect(cache.get("a")).toBe("");
  });

  it("refuses a size that is not a positive whole number", () => {
    for (const max of [0, -1, 1.5, Number.NaN]) {
      expect(() => new TranslationCache(max)).toThrow(RangeError);
    }
  });
});

describe("translationKey", () => {
  it("separates languages and texts unambiguously", () => {
    expect(translationKey("ES", "hola")).not.toBe(translationKey("DE", "hola"));
    expect(translationKey("EN-US", "x")).not.toBe(translationKey("EN", "-US x"));
    expect(translationKey("es", "hola")).toBe(translationKey("ES", "hola"));
    expect(translationKey("ES", "Hola")).not.toBe(translationKey("ES", "hola"));
  });
});
