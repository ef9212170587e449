import type { ActionFunctionArgs } from "@remix-run/node";
import { emptySchema, isUserId } from "~/features/admin/validation";
import { issueResetCode } from "~/features/reset-codes/reset-codes.server";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** POST /api/admin/people/:id/reset-code: an administrator's one-time reset code for that person. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  if (!isUserId(params.id)) fail(404, "No such person.");
  await readJson(request, emptySchema);
  return jsonResponse(await issueResetCode(pb, params.id));
}
