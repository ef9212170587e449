import { TARGET_LANGUAGES, targetLanguageName } from "~/features/translation/languages";

/** Why a language is greyed out in the Translate menu. */
export const NOT_AVAILABLE_HERE = "Not available on this server";

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

export { bcp47, failedText, OnceReporter } from "~/features/translation/notices";
