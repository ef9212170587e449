// The translation routes as the translation tests (translate*.test.ts) call them.

export const ROUTE = "/api/chat/translate";
const LANGUAGES = "/api/chat/translate/languages";
export const SERVICE_UNAVAILABLE = "Translation service unavailable";

export async function languages(url: string, token?: string) {
  const res = await fetch(`${url}${LANGUAGES}`, { headers: token ? { Authorization: token } : {} });
  return { status: res.status, json: (await res.json()) as { languages?: string[]; message?: string } };
}

export function texts(json: unknown): string[] {
  const translations = (json as { translations: { text: string }[] }).translations;
  return translations.map((item) => item.text);
}
