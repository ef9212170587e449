// Target languages of auto-translation, by DeepL-style code (the codes the translate hook accepts as
// target_lang, and what profiles store as translation_language). `formality` marks the languages
// for which DeepL can translate formally or informally.
//
// Which of them a server can actually translate to depends on its provider (Apertium, LibreTranslate
// or DeepL); the translate hook answers 422 for the others. The server keeps its own copy of the
// codes and names in pb_hooks/lib/translation.js (tests/unit/translation-tables.test.ts fails when
// the two disagree).

export interface TargetLanguage {
  code: string;
  name: string;
  formality: boolean;
}

export const DEFAULT_TARGET_LANGUAGE = "EN-US";

export const TARGET_LANGUAGES: readonly TargetLanguage[] = Object.freeze(
  [
    { code: "AR", name: "Arabic", formality: false },
    { code: "BG", name: "Bulgarian", formality: false },
    { code: "CS", name: "Czech", formality: false },
    { code: "DA", name: "Danish", formality: false },
    { code: "DE", name: "German", formality: true },
    { code: "EL", name: "Greek", formality: false },
    { code: "EN-GB", name: "English (British)", formality: true },
    { code: "EN-US", name: "English (American)", formality: true },
    { code: "ES", name: "Spanish", formality: true },
    { code: "ET", name: "Estonian", formality: false },
    { code: "FI", name: "Finnish", formality: false },
    { code: "FR", name: "French", formality: true },
    { code: "HU", name: "Hungarian", formality: false },
    { code: "ID", name: "Indonesian", formality: false },
    { code: "IT", name: "Italian", formality: true },
    { code: "JA", name: "Japanese", formality: true },
    { code: "KO", name: "Korean", formality: false },
    { code: "LT", name: "Lithuanian", formality: false },
    { code: "LV", name: "Latvian", formality: false },
    { code: "NB", name: "Norwegian (Bokmål)", formality: false },
    { code: "NL", name: "Dutch", formality: true },
    { code: "PL", name: "Polish", formality: true },
    { code: "PT-BR", name: "Portuguese (Brazilian)", formality: true },
    { code: "PT-PT", name: "Portuguese (European)", formality: true },
    { code: "RO", name: "Romanian", formality: false },
    { code: "RU", name: "Russian", formality: true },
    { code: "SK", name: "Slovak", formality: false },
    { code: "SL", name: "Slovenian", formality: false },
    { code: "SV", name: "Swedish", formality: false },
    { code: "TR", name: "Turkish", formality: false },
    { code: "UK", name: "Ukrainian", formality: false },
    { code: "ZH", name: "Chinese (simplified)", formality: false },
    { code: "ZH-HANT", name: "Chinese (traditional)", formality: false },
  ].map((language) => Object.freeze(language)),
);

const BY_CODE: ReadonlyMap<string, TargetLanguage> = new Map(TARGET_LANGUAGES.map((language) => [language.code, language]));

/** The language for a code, case-insensitively ("pt-br" finds PT-BR), or undefined. */
export function findTargetLanguage(code: string): TargetLanguage | undefined {
  return BY_CODE.get(code.trim().toUpperCase());
}

export function isTargetLanguageCode(code: string): boolean {
  return findTargetLanguage(code) !== undefined;
}

/** The display name of a code, or the code itself when it is not a known target language. */
export function targetLanguageName(code: string): string {
  return findTargetLanguage(code)?.name ?? code;
}
