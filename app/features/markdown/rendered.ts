import { setBounded } from "~/lib/bounded-map";

/**
 * What messages' texts rendered to, one entry per message (ADR 73): a conversation opened again draws
 * its Markdown from here instead of parsing it again. An entry holds the version it was made from (the
 * text, after the sender's latest edit, and the reader whose mentions stand out): an edit renders
 * anew and replaces it. The oldest entries go first past `max`.
 */
export function renderedTrees<T>(max: number) {
  const entries = new Map<string, { text: string; username: string; tree: T }>();
  return (key: string, text: string, username: string, render: () => T): T => {
    const found = entries.get(key);
    if (found && found.text === text && found.username === username) return found.tree;
    const tree = render();
    if (found) entries.delete(key);
    setBounded(entries, key, { text, username, tree }, max);
    return tree;
  };
}
