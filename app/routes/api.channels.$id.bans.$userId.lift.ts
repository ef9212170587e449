import type { ActionFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { liftBan, param, userIdSchema } from "~/features/invites/invites.server";
import { jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** A channel or workspace admin lets someone removed join again. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const userId = param(userIdSchema, params.userId);
  const { pb } = await requireUser(request, context);
  return jsonResponse(await liftBan(pb, channelId, userId));
}
