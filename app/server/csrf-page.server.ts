import { data, type AppLoadContext } from "@remix-run/node";
import { commitCsrf } from "~/server/csrf.server";
import { pocketbaseFor } from "~/server/pocketbase.server";

/**
 * The loader of a page an emailed link opens (/verify-email, /change-email): a CSRF token bound to
 * the session this browser has, if any (csrf.server.ts), and nothing cached.
 */
export async function emailLinkPageData(request: Request, context: AppLoadContext) {
  const { token } = await pocketbaseFor(request, context);
  const [csrfToken, csrfCookie] = await commitCsrf(request, token);
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
  return data({ csrfToken }, { headers });
}
