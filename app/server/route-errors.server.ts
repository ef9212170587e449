import type { AppLoadContext } from "@remix-run/node";
import { SESSION_ENDED_MESSAGE } from "~/lib/errors";
import { failOnOutage } from "./outage.server";
import { ClientResponseError, pbErrorMessage } from "./pocketbase.server";
import { jsonResponse } from "./responses.server";
import { requireLiveSessionAfterRefusal } from "./session-check.server";
import { sessionUser } from "./session.server";
import { tooManyNoted } from "./too-many.server";

// What a route did not answer itself is answered here, never as Remix's 500 (every route's loader and
// action is wrapped: `answerRouteErrors`, from server.mjs; docs/decisions/0087-unanswered-pocketbase-errors.md):
// - PocketBase refused one of the request's calls for too many requests: 429 with its words, whatever
//   the route made of the refusal (docs/decisions/0068-caps-per-account.md);
// - an error of PocketBase that the route did not expect (it re-threw it): PocketBase away 503, its disk
//   full 507; a refusal of the caller's token (the web server still took the session for signed in:
//   its email or password had just changed elsewhere) 401 and why; another refusal its own 4xx with
//   PocketBase's words; a failure of PocketBase 502.
export const NOT_ALLOWED_MESSAGE = "You are not allowed to do that.";
export const REFUSED_MESSAGE = "The request could not be completed.";
export const FAILED_MESSAGE = "The server could not complete the request. Please try again.";

type Args = { request: Request; context: AppLoadContext };
type Handler = (args: Args) => unknown;

/** The answer to a PocketBase error no route code caught (thrown as a Response where it checks the session). */
export async function answerUnexpected(error: ClientResponseError, args: Args): Promise<Response> {
  failOnOutage(error);
  const status = error.status;
  if (status === 401 || status === 403) {
    const { token } = await sessionUser(args.request);
    // (throws 401 with why when PocketBase no longer takes the session: signed out, deactivated)
    if (token) await requireLiveSessionAfterRefusal(token, args.context);
    return jsonResponse({ message: token ? NOT_ALLOWED_MESSAGE : SESSION_ENDED_MESSAGE }, token ? 403 : 401);
  }
  if (status >= 400 && status < 500) return jsonResponse({ message: pbErrorMessage(error) ?? REFUSED_MESSAGE }, status);
  return jsonResponse({ message: FAILED_MESSAGE }, 502);
}

function wrap(handler: Handler): Handler {
  return async (args) => {
    let result: unknown;
    try {
      result = await handler(args);
    } catch (thrown) {
      const message = tooManyNoted(args.context);
      if (message && (!(thrown instanceof Response) || thrown.status >= 500)) throw jsonResponse({ message }, 429);
      if (thrown instanceof ClientResponseError) throw await answerUnexpected(thrown, args);
      throw thrown;
    }
    const message = tooManyNoted(args.context);
    if (message && result instanceof Response && result.status >= 500) return jsonResponse({ message }, 429);
    return result;
  };
}

/** Wraps the loader and action of every route of the build (server.mjs, before Remix's handler is made). */
export function answerRouteErrors(routes: Record<string, { module: Record<string, unknown> } | undefined>) {
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
