import type { ActionFunctionArgs } from "@remix-run/node";
import { signOutEverywhere } from "~/features/admin/admin.server";
import { removeUserFromCalls } from "~/features/calls/removal.server";
import { emptySchema, isUserId } from "~/features/admin/validation";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** POST /api/admin/people/:id/sign-out: every session of that account ends at once, and its devices leave every call. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  await readJson(request, emptySchema);
  // (the body first: one too large is 413 whatever the id, as on every route)
  if (!isUserId(params.id)) fail(404, "No such person.");
  const result = await signOutEverywhere(pb, params.id);
  await removeUserFromCalls(params.id);
  return jsonResponse(result);
}
