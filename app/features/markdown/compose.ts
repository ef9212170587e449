/** Markdown helpers for the composer: Ctrl/Cmd+B, I and E, and Enter inside a fenced code block. */

/** The marker each shortcut wraps the selection in: bold, italic, inline code. */
export const SHORTCUT_MARKERS: Readonly<Record<string, string>> = { b: "**", i: "_", e: "`" };

/** Whether a fenced code block (```) is open at the end of this text: Enter then adds a line instead of sending. */
export function insideOpenFence(before: string): boolean {
  const fences = before.split("\n").filter((line) => /^\s{0,3}(```|~~~)/.test(line)).length;
  return fences % 2 === 1;
}

/** Wraps text[start, end) in the marker (or puts an empty pair at the caret); answers the new text and selection. */
export function wrapSelection(text: string, start: number, end: number, marker: string) {
  const selected = text.slice(start, end);
  return {
    text: `${text.slice(0, start)}${marker}${selected}${marker}${text.slice(end)}`,
    start: start + marker.length,
    end: end + marker.length,
  };
}
