import type { ActionFunctionArgs } from "@remix-run/node";
import { sessionChangeHeaders } from "~/server/csrf.server";
import { jsonResponse, requireCsrf, requirePost } from "~/server/http.server";
import { revokeSession } from "~/server/session-check.server";
import { destroyAuth, readSession } from "~/server/session.server";

// Signing out revokes the session's token in PocketBase, so a copy of the old cookie stops working too.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const token = (await readSession(request)).get("token");
  if (token) await revokeSession(token, context);
  return jsonResponse({ ok: true }, 200, await sessionChangeHeaders(request, await destroyAuth(request), null));
}
