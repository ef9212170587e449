// Syntax highlighting with highlight.js's common languages, loaded the first time a message shows a
// code block. Its output is HTML whose text is escaped by highlight.js: only <span class="hljs-…">.
type Hljs = typeof import("highlight.js/lib/common").default;

let loading: Promise<Hljs> | null = null;
const load = () => (loading ??= import("highlight.js/lib/common").then((m) => m.default));

/** The code as highlighted HTML, or null for a language highlight.js does not know (shown plain). */
export async function highlight(code: string, language: string): Promise<string | null> {
  const hljs = await load();
  if (!language || !hljs.getLanguage(language)) return null;
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
