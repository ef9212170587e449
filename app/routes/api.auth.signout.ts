import type { ActionFunctionArgs } from "@remix-run/node";
import { SIGN_OUT_UNCONFIRMED_MESSAGE } from "~/features/auth/signout-notice";
import { sessionChangeHeaders } from "~/server/csrf.server";
import { jsonResponse, requireCsrf, requirePost } from "~/server/http.server";
import { revokeSession } from "~/server/session-check.server";
import { destroyAuth, readSession } from "~/server/session.server";

// Signing out revokes the session's token in PocketBase, so a copy of the old cookie stops working too.
// The cookie is cleared whatever PocketBase answers (ADR 66); when it could not record the sign-out
// (its disk full and its journal too, or it is unreachable), the answer says so for the page to show.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const token = (await readSession(request)).get("token");
  const confirmed =
    !token ||
    (await revokeSession(token, context).then(
      () => true,
      () => false,
    ));
  const body = confirmed ? { ok: true, confirmed } : { ok: true, confirmed, message: SIGN_OUT_UNCONFIRMED_MESSAGE };
  return jsonResponse(body, 200, await sessionChangeHeaders(request, await destroyAuth(request), null));
}
