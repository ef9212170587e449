import type { AppLoadContext } from "@remix-run/node";
import { jsonResponse } from "~/server/responses.server";

/**
 * A request that PocketBase refused for too many requests is answered 429 with PocketBase's words
 * (whose budget ran out: this device's or this account's, pocketbase/account_limits.go), never as a
 * server failure, whatever the route made of the refusal (docs/decisions/0068-caps-per-account.md).
 * The PocketBase client of a request notes the refusal in the request's load context
 * (`noteTooMany`); every route's loader and action is wrapped (`answerTooMany`, from server.mjs)
 * so that a 5xx, or an error nothing caught, becomes that 429.
 */
const TOO_MANY_DEFAULT = "Too many requests. Please wait a moment.";

type Noted = AppLoadContext & { pocketbaseTooMany?: string };

/** Notes in the request's context that PocketBase answered 429 (with its message). */
export function noteTooMany(context: AppLoadContext | undefined, status: number, data: unknown) {
  if (status !== 429 || !context) return;
  const message = (data as { message?: unknown } | null)?.message;
  (context as Noted).pocketbaseTooMany = typeof message === "string" && message ? message : TOO_MANY_DEFAULT;
}

type Handler = (args: { context: AppLoadContext }) => unknown;

function wrap(handler: Handler): Handler {
  return async (args) => {
    const tooMany = () => (args.context as Noted).pocketbaseTooMany;
    let result: unknown;
    try {
      result = await handler(args);
    } catch (thrown) {
      const message = tooMany();
      if (message && (!(thrown instanceof Response) || thrown.status >= 500)) throw jsonResponse({ message }, 429);
      throw thrown;
    }
    const message = tooMany();
    if (message && result instanceof Response && result.status >= 500) return jsonResponse({ message }, 429);
    return result;
  };
}

/** Wraps the loader and action of every route of the build (server.mjs, before Remix's handler is made). */
export function answerTooMany(routes: Record<string, { module: Record<string, unknown> } | undefined>) {
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const { loader, action } = route.module;
    route.module = {
      ...route.module,
      ...(typeof loader === "function" ? { loader: wrap(loader as Handler) } : {}),
      ...(typeof action === "function" ? { action: wrap(action as Handler) } : {}),
    };
  }
}
