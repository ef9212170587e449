import type { AppLoadContext } from "@remix-run/node";

/**
 * A request that PocketBase refused for too many requests is answered 429 with PocketBase's words
 * (whose budget ran out: this device's or this account's, pocketbase/account_limits.go), never as a
 * server failure, whatever the route made of the refusal (docs/decisions/0068-caps-per-account.md).
 * The PocketBase client of a request notes the refusal in the request's load context
 * (`noteTooMany`); every route's loader and action is wrapped (route-errors.server.ts) so that a 5xx,
 * or an error nothing caught, becomes that 429.
 */
const TOO_MANY_DEFAULT = "Too many requests. Please wait a moment.";

/** What PocketBase's own limiter answers (sign-up, sign-in and the other per-address rules): said in the product's words. */
const POCKETBASE_TOO_MANY = "Too Many Requests.";

type Noted = AppLoadContext & { pocketbaseTooMany?: string };

/** The words of a 429 from PocketBase: its own when they say whose budget ran out, else the product's. */
export function tooManyWords(data: unknown): string {
  const message = (data as { message?: unknown } | null)?.message;
  return typeof message === "string" && message && message !== POCKETBASE_TOO_MANY ? message : TOO_MANY_DEFAULT;
}

/** Notes in the request's context that PocketBase answered 429 (with its message). */
export function noteTooMany(context: AppLoadContext | undefined, status: number, data: unknown) {
  if (status !== 429 || !context) return;
  (context as Noted).pocketbaseTooMany = tooManyWords(data);
}

/** PocketBase's words when it refused one of the request's calls for too many requests, or undefined. */
export function tooManyNoted(context: AppLoadContext | undefined): string | undefined {
  return (context as Noted | undefined)?.pocketbaseTooMany;
}
