import type { ActionFunctionArgs } from "@remix-run/node";
import { inviteIdSchema, param, revokeInvite } from "~/features/invites/invites.server";
import { jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** The admin console's revoke: the workspace's owner and admins only (the hook checks the role). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const id = param(inviteIdSchema, params.id);
  const { pb } = await requireUser(request, context);
  return jsonResponse(await revokeInvite(pb, id, true));
}
