// Sending one of the hostile suite's requests and judging its answer (tests/integration/hostile.test.ts,
// tests/integration/oversize-bodies.test.ts).

import type { Case } from "./hostile-inputs";
import { rawRequest, type Answer } from "./web";

/** What is wrong with an answer to a hostile request, or undefined: a 4xx with a readable message (or the status the case asks for). */
export function problem(c: Case, answer: Answer): string | undefined {
  if (c.ok !== undefined && answer.status === 200 && answer.text === c.ok) return undefined;
  if (c.status !== undefined && answer.status !== c.status) return `expected ${c.status}`;
  if (answer.status === 0) return c.body && typeof c.body === "function" ? undefined : "connection closed without an answer";
  if (answer.status >= 500) return `server error ${answer.status}`;
  if (answer.status < 400) return `accepted with ${answer.status}`;
  const message = (answer.json as { message?: unknown } | undefined)?.message;
  if (typeof message !== "string" || message.trim().length < 3) return `no readable message: ${answer.text.slice(0, 120)}`;
  if (/at \w+ \(|node_modules|goroutine|\.go:\d+|TypeError|ReferenceError/.test(answer.text)) return "leaks internals";
  return undefined;
}

/** Sends one case (its visitor's cookie and CSRF token added) to the web server or PocketBase; a failed request is status -1. */
export function sendCase(c: Case, urls: { web: string; pb: string }): Promise<Answer> {
  const headers = { ...(c.headers ?? {}) } as Record<string, string>;
  if (c.as && !("Cookie" in headers)) headers.Cookie = c.as.cookieHeader();
  if (c.as && !("X-CSRF-Token" in headers)) headers["X-CSRF-Token"] = c.as.csrfToken;
  return rawRequest(c.target === "pb" ? urls.pb : urls.web, {
    method: c.method,
    path: c.path,
    headers,
    body: c.body,
    timeoutMs: 20_000,
  }).catch((error: Error) => ({ status: -1, text: error.message, json: undefined, headers: {} }) as Answer);
}
