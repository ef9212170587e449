// What the page says about translation, and the language tag of a translation: loaded with the page
// (the language list and the menu's choices, availability.ts, load when needed).

/** The BCP 47 tag of a target language code ("EN-US" is en-US, "ZH-HANT" zh-Hant, "JA" ja), for `lang`. */
export function bcp47(code: string): string {
  const [language, ...rest] = code.trim().split("-");
  const subtags = rest.map((part) => (part.length === 4 ? part[0].toUpperCase() + part.slice(1).toLowerCase() : part.toUpperCase()));
  return [language.toLowerCase(), ...subtags].join("-");
}

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
