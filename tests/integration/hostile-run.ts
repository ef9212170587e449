// Sending one of the hostile suite's requests and judging its answer, and the stack the sweeps send to
// (tests/integration/hostile.test.ts, oversize-bodies.test.ts, prototype-sweep.test.ts).

import type { WebServer } from "../e2e/stack";
import type { Case } from "./hostile-inputs";
import { startPocketBase, type RunningPocketBase } from "./pocketbase";
import { rawRequest, startWebFor, Visitor, type Answer } from "./web";

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

/** PocketBase's token for an account signed up through the web app (its address and login secret). */
export async function pocketBaseToken(pbUrl: string, account: { email: string; loginSecret: string }): Promise<string> {
  const auth = await fetch(`${pbUrl}/api/collections/users/auth-with-password`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ identity: account.email, password: account.loginSecret }),
  });
  return ((await auth.json()) as { token: string }).token;
}

/** PocketBase and the web server, with Alice signed up through the web app and a channel of hers. */
export async function startSweepStack(channelName: string): Promise<{
  pb: RunningPocketBase;
  web: WebServer;
  alice: Visitor;
  channelId: string;
  aliceToken: string;
}> {
  const pb = await startPocketBase();
  const web = await startWebFor(pb.url);
  const alice = new Visitor(web.url);
  const account = await alice.signUp();
  const channelId = (await alice.createChannel(channelName)).id;
  return { pb, web, alice, channelId, aliceToken: await pocketBaseToken(pb.url, account) };
}
