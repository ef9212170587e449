// The page's translator (app/features/translation/translate.client.ts) with an engine of the test's own:
// what it asks, in which batches, and that a failing engine is not sent every earlier message again
// with each new one.

import { describe, expect, it, vi } from "vitest";
import { createTranslator, RETRY_AFTER_MS, TranslationFailed, type AskTranslations } from "~/features/translation/translate.client";

function engine(fails: () => boolean) {
  const asked: string[][] = [];
  const ask: AskTranslations = async (texts) => {
    asked.push(texts);
    if (fails()) throw new Error("Translation service unavailable");
    return texts.map((text) => `es:${text}`);
  };
  return { asked, ask };
}

describe("the translator", () => {
  it("asks each new message once while the engine fails, and a failed one again only after the wait", async () => {
    let failing = true;
    const { asked, ask } = engine(() => failing);
    let clock = 1_000_000;
    const translator = createTranslator(ask, () => clock);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);

    await expect(translator.translateTexts("ES", ["one"])).rejects.toBeInstanceOf(TranslationFailed);
    await expect(translator.translateTexts("ES", ["one", "two"])).rejects.toBeInstanceOf(TranslationFailed);
    await expect(translator.translateTexts("ES", ["one", "two", "three"])).rejects.toBeInstanceOf(TranslationFailed);
    // (nothing new: nothing asked, nothing said)
    await translator.translateTexts("ES", ["one", "two", "three"]);
    expect(asked).toEqual([["one"], ["two"], ["three"]]);

    clock += RETRY_AFTER_MS;
    failing = false;
    await translator.translateTexts("ES", ["one", "two", "three"]);
    expect(asked.at(-1)).toEqual(["one", "two", "three"]);
    expect(translator.cachedTranslation("ES", "two")).toBe("es:two");
    // translated once: not asked again
    await translator.translateTexts("ES", ["one", "two", "three"]);
    expect(asked).toHaveLength(4);
  });

  it("does not ask again for a text whose request is still on its way, and waits for it", async () => {
    const asked: string[][] = [];
    const answers: (() => void)[] = [];
    const ask: AskTranslations = (texts) => {
      asked.push(texts);
      return new Promise((resolve) => answers.push(() => resolve(texts.map((text) => `es:${text}`))));
    };
    const translator = createTranslator(ask);
    const first = translator.translateTexts("ES", ["one"]);
    // a second message arrives while the first one's translation is on its way
    let secondDone = false;
    const second = translator.translateTexts("ES", ["one", "two"]).then(() => (secondDone = true));
    await vi.waitFor(() => expect(asked).toEqual([["one"], ["two"]]));
    answers[1]();
    await vi.waitFor(() => expect(translator.cachedTranslation("ES", "two")).toBe("es:two"));
    // (the second call ends only once "one", asked by the first, has come too)
    expect(secondDone).toBe(false);
    answers[0]();
    await Promise.all([first, second]);
    expect(translator.cachedTranslation("ES", "one")).toBe("es:one");
    expect(asked).toHaveLength(2);
  });

  it("keeps a failure to its language, and a long message by its beginning", async () => {
    const { asked, ask } = engine(() => asked.length === 1);
    const translator = createTranslator(ask);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await expect(translator.translateTexts("ES", ["hello"])).rejects.toBeInstanceOf(TranslationFailed);
    await translator.translateTexts("DE", ["hello"]);
    expect(asked).toEqual([["hello"], ["hello"]]);
    expect(translator.cachedTranslation("DE", "hello")).toBe("es:hello");

    const long = "x".repeat(6000);
    await translator.translateTexts("DE", [long]);
    expect(asked.at(-1)).toEqual(["x".repeat(5000)]);
    expect(translator.cachedTranslation("DE", long)).toBe(`es:${"x".repeat(5000)}`);
    await translator.translateTexts("DE", [long]);
    expect(asked).toHaveLength(3);
  });

  it("sends at most 50 texts in one batch", async () => {
    const { asked, ask } = engine(() => false);
    const translator = createTranslator(ask);
    await translator.translateTexts(
      "ES",
      Array.from({ length: 120 }, (_, i) => `message ${i}`),
    );
    expect(asked.map((batch) => batch.length)).toEqual([50, 50, 20]);
  });
});
