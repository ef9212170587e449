import { api } from "~/lib/api.client";

let languages: Promise<ReadonlySet<string> | null> | null = null;

/**
 * The target languages the server's engine can translate into, asked once per page and kept; null
 * when the server could not say (asked again next time).
 */
export function availableLanguages(): Promise<ReadonlySet<string> | null> {
  const forget = () => {
    languages = null;
    return null;
  };
  languages ??= api<{ languages: string[] | null }>("/api/translate-languages").then(
    (answer) => (Array.isArray(answer.languages) ? new Set(answer.languages) : forget()),
    (error) => {
      console.warn("The translation languages could not be loaded", error);
      return forget();
    },
  );
  return languages;
}
