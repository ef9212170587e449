import { TARGET_LANGUAGES, targetLanguageName } from "~/features/translation/languages";

/** Why a language is greyed out in the Translate menu. */
export const NOT_AVAILABLE_HERE = "Not available on this server";

/** The BCP 47 tag of a target language code ("EN-US" is en-US, "ZH-HANT" zh-Hant, "JA" ja), for `lang`. */
export function bcp47(code: string): string {
  const [language, ...rest] = code.trim().split("-");
  const subtags = rest.map((part) => (part.length === 4 ? part[0].toUpperCase() + part.slice(1).toLowerCase() : part.toUpperCase()));
  return [language.toLowerCase(), ...subtags].join("-");
}

export interface LanguageOption {
  code: string;
  label: string;
  disabled: boolean;
}

/**
 * The Translate menu's choices: every target language, those the engine cannot translate into greyed
 * with the reason. While the engine's list is unknown (`available` null) none is greyed: the
 * translation itself then says whether it works.
 */
export function languageOptions(available: ReadonlySet<string> | null): LanguageOption[] {
  return TARGET_LANGUAGES.map(({ code, name }) => {
    const disabled = available !== null && !available.has(code);
    return { code, disabled, label: `${name} (${code})${disabled ? ` - ${NOT_AVAILABLE_HERE}` : ""}` };
  });
}

/** The text shown when a language cannot be translated into here (the server's own words for the 422). */
export const notAvailableText = (code: string) => `Translation to ${targetLanguageName(code)} is not available on this server.`;

/** The text shown when translating failed for another reason. */
export const failedText = (reason: string) => `Messages could not be translated (${reason}). They are shown in their original language.`;

/** Says each distinct problem once: `report` answers true the first time a text is given, false after. */
export class OnceReporter {
  private readonly said = new Set<string>();

  report(text: string): boolean {
    if (this.said.has(text)) return false;
    this.said.add(text);
    return true;
  }
}
