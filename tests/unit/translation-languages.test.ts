import { describe, expect, it } from "vitest";
import {
  NOT_AVAILABLE_HERE,
  OnceReporter,
  bcp47,
  failedText,
  languageOptions,
  notAvailableText,
} from "~/features/translation/availability";
import { TARGET_LANGUAGES } from "~/features/translation/languages";

describe("translated text is marked with its real language", () => {
  it("turns our codes into BCP 47 tags", () => {
    expect(bcp47("JA")).toBe("ja");
    expect(bcp47("EN-US")).toBe("en-US");
    expect(bcp47("PT-BR")).toBe("pt-BR");
    expect(bcp47("ZH-HANT")).toBe("zh-Hant");
    expect(bcp47("nb")).toBe("nb");
  });

  it("gives every target language a well-formed tag", () => {
    for (const { code } of TARGET_LANGUAGES) {
      const tag = bcp47(code);
      expect(tag).toMatch(/^[a-z]{2,3}(-([A-Z]{2}|[A-Z][a-z]{3}))?$/);
      expect(Intl.getCanonicalLocales(tag)).toEqual([tag]);
    }
  });
});

describe("the Translate menu's languages", () => {
  it("greys the languages the engine lacks, with the reason", () => {
    const options = languageOptions(new Set(["ES", "EN-US"]));
    expect(options).toHaveLength(TARGET_LANGUAGES.length);
    expect(options.find((o) => o.code === "ES")).toEqual({ code: "ES", label: "Spanish (ES)", disabled: false });
    expect(options.find((o) => o.code === "JA")).toEqual({
      code: "JA",
      label: `Japanese (JA) - ${NOT_AVAILABLE_HERE}`,
      disabled: true,
    });
    expect(options.filter((o) => !o.disabled).map((o) => o.code)).toEqual(["EN-US", "ES"]);
  });

  it("greys none while the engine's list is unknown", () => {
    expect(languageOptions(null).every((o) => !o.disabled)).toBe(true);
  });
});

describe("a failed translation is said once", () => {
  it("reports each distinct problem the first time only", () => {
    const reporter = new OnceReporter();
    expect(reporter.report(notAvailableText("JA"))).toBe(true);
    expect(reporter.report(notAvailableText("JA"))).toBe(false);
    expect(reporter.report(failedText("Translation service unavailable"))).toBe(true);
    expect(reporter.report(failedText("Translation service unavailable"))).toBe(false);
    expect(notAvailableText("JA")).toBe("Translation to Japanese is not available on this server.");
  });
});
