import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { publicEnv } from "~/server/env.server";
import { pocketbaseFor } from "~/server/pocketbase.server";
import { destroyAuth } from "~/server/session.server";
import { loadSessionUser } from "~/features/auth/users.server";
import { commitCsrf } from "~/server/csrf.server";

/**
 * The single page's data (spec §2), the same at `/` and at every `/c/...` address (ADR 0062): the
 * session's user and the page's CSRF token. The address is not read: what it names is the browser's.
 */
export async function pageLoader({ request, context }: LoaderFunctionArgs) {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const { pb, token, userId } = await pocketbaseFor(request, context);
  let user = null;
  if (token && userId) {
    try {
      user = await loadSessionUser(pb, userId);
    } catch {
      throw new Response("The chat server is not reachable right now.", { status: 503 });
    }
    if (!user) headers.append("Set-Cookie", await destroyAuth(request));
  }
  // The page's CSRF token is bound to the session it will use (csrf.server.ts).
  const [csrfToken, csrfCookie] = await commitCsrf(request, user ? token : null);
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
  return data({ csrfToken, user, ...publicEnv() }, { headers });
}
