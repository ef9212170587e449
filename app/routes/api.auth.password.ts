import type { ActionFunctionArgs } from "@remix-run/node";
import { changePassword } from "~/features/password/password.server";
import { changePasswordRequestSchema } from "~/features/password/validation";
import { sessionChangeHeaders } from "~/server/csrf.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { forgetToken } from "~/server/session-check.server";
import { commitAuth } from "~/server/session.server";

/**
 * POST /api/auth/password: changes the account password (login secrets and re-wrapped keys only, ADR
 * 26). Every other session of the account is signed out; this one goes on with a new token, in a new
 * cookie, with a new CSRF token.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, token, userId } = await requireUser(request, context);
  const body = await readJson(request, changePasswordRequestSchema);
  const fresh = await changePassword(pb, request, { userId, token, context }, body);
  forgetToken(token);
  return jsonResponse({ ok: true }, 200, await sessionChangeHeaders(request, await commitAuth(request, fresh, userId), fresh));
}
