import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { changePassword, changePasswordSchema, startPasswordChange } from "~/features/channel-password/password.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** A channel admin about to change a classic channel's password: its epoch and the members to seal it to. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  return jsonResponse(await startPasswordChange(pb, channelId));
}

/** Changes it: {epoch, verifier, shares: [{userId, data}]} (docs/decisions/0060-changing-the-channel-password.md). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const change = await readJson(request, changePasswordSchema);
  const done = await changePassword(pb, channelId, change);
  return jsonResponse({ epoch: done.epoch, invitesRevoked: done.invites_revoked });
}
