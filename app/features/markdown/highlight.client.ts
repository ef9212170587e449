// Syntax highlighting with highlight.js's common languages, loaded the first time a message shows a
// code block. Its output is HTML whose text is escaped by highlight.js: only <span class="hljs-…">.
import { setBounded } from "~/lib/bounded-map";

type Hljs = typeof import("highlight.js/lib/common").default;

let loading: Promise<Hljs> | null = null;
const load = () => (loading ??= import("highlight.js/lib/common").then((m) => m.default));

// Highlighted blocks shown lately, so a conversation opened again shows them at once.
const done = new Map<string, string | null>();
const DONE_MAX = 500;
const keyOf = (code: string, language: string) => `${language}\u0000${code}`;

/** The block's highlighted HTML when it was highlighted before (null: plain), undefined when not yet. */
export const highlighted = (code: string, language: string) => done.get(keyOf(code, language));

/** The code as highlighted HTML, or null for a language highlight.js does not know (shown plain). */
export async function highlight(code: string, language: string): Promise<string | null> {
  const hljs = await load();
  const html = !language || !hljs.getLanguage(language) ? null : hljs.highlight(code, { language, ignoreIllegals: true }).value;
  setBounded(done, keyOf(code, language), html, DONE_MAX);
  return html;
}
