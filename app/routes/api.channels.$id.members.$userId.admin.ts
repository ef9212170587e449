import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { channelIdParam } from "~/features/channels/params.server";
import { param, setChannelAdmin, userIdSchema } from "~/features/invites/invites.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** The channel's creator or a workspace admin names (or un-names) a member channel admin: {admin}. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const userId = param(userIdSchema, params.userId);
  const { pb } = await requireUser(request, context);
  const { admin } = await readJson(request, z.object({ admin: z.boolean() }));
  return jsonResponse(await setChannelAdmin(pb, channelId, userId, admin));
}
