// Syntax highlighting with highlight.js's common languages, loaded the first time a message shows a
// code block. Its output is HTML whose text is escaped by highlight.js: only <span class="hljs-…">.
// Highlighting is never on the way of a conversation being drawn (ADR 73): a block shows its plain
// code first and takes its colours in the browser's idle time, a few blocks per idle period.
import { setBounded } from "~/lib/bounded-map";

type Hljs = typeof import("highlight.js/lib/common").default;

let hljs: Hljs | null = null;
let loading: Promise<Hljs> | null = null;
// (a failed fetch, the network away, is not kept: the next code block asks again)
const load = () =>
  (loading ??= import("highlight.js/lib/common").then(
    (m) => {
      hljs = m.default;
      return hljs;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  ));

// Highlighted blocks shown lately: a conversation opened again does not highlight them again.
const done = new Map<string, string | null>();
const DONE_MAX = 500;
const keyOf = (code: string, language: string) => `${language}\u0000${code}`;

/** The code as highlighted HTML, or null for a language highlight.js does not know (shown plain). */
function highlightNow(h: Hljs, code: string, language: string): string | null {
  const key = keyOf(code, language);
  const known = done.get(key);
  if (known !== undefined) return known;
  const html = !language || !h.getLanguage(language) ? null : h.highlight(code, { language, ignoreIllegals: true }).value;
  setBounded(done, key, html, DONE_MAX);
  return html;
}

interface Job {
  code: string;
  language: string;
  deliver: (html: string) => void;
}
const queue = new Set<Job>();
let scheduled = false;
// A page kept busy still gets its colours within this long.
const IDLE_TIMEOUT_MS = 1_000;
// What one idle period is left for the browser's own work at least.
const KEEP_MS = 2;

type Deadline = { timeRemaining: () => number; didTimeout?: boolean };
const whenIdle = (run: (deadline: Deadline) => void) =>
  typeof requestIdleCallback === "function"
    ? requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS })
    : setTimeout(() => run({ timeRemaining: () => 16, didTimeout: true }), 50);

function schedule() {
  if (scheduled || queue.size === 0) return;
  scheduled = true;
  if (!hljs) {
    load().then(
      () => whenIdle(work),
      (error) => {
        scheduled = false;
        queue.clear();
        console.warn("Code could not be highlighted", error);
      },
    );
  } else whenIdle(work);
}

function work(deadline: Deadline) {
  scheduled = false;
  let first = true;
  for (const job of queue) {
    if (!first && deadline.timeRemaining() < KEEP_MS) break;
    first = false;
    queue.delete(job);
    const html = highlightNow(hljs!, job.code, job.language);
    if (html !== null) job.deliver(html);
  }
  schedule();
}

/**
 * Asks for the block's highlighted HTML in the browser's idle time: `deliver` is called then (never
 * for a language highlight.js does not know). Answers a function that withdraws the request.
 */
export function highlightWhenIdle(code: string, language: string, deliver: (html: string) => void): () => void {
  if (!language) return () => undefined;
  const job = { code, language, deliver };
  queue.add(job);
  schedule();
  return () => void queue.delete(job);
}
