import type { ActionFunctionArgs } from "@remix-run/node";
import { signOutSession } from "~/features/devices/devices.server";
import { removeSessionFromCalls } from "~/features/calls/removal.server";
import { fail, jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** POST /api/auth/sessions/:id/revoke: signs another device of the account out at once (out of any call too). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, token, userId } = await requireUser(request, context);
  if (!/^[a-z0-9]{15}$/.test(params.id ?? "")) fail(404, "This device is not signed in.");
  await signOutSession(pb, params.id!, { token, context });
  await removeSessionFromCalls(params.id!, userId);
  return jsonResponse({ ok: true });
}
