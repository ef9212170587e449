import type { ActionFunctionArgs } from "@remix-run/node";
import { changeRole } from "~/features/admin/admin.server";
import { isUserId, roleChangeSchema } from "~/features/admin/validation";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** POST /api/admin/people/:id/role {role, from?}: admins manage members and guests; only the owner manages admins. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const { role, from } = await readJson(request, roleChangeSchema);
  // (the body first: one too large is 413 whatever the id, as on every route)
  if (!isUserId(params.id)) fail(404, "No such person.");
  return jsonResponse(await changeRole(pb, params.id, role, from));
}
