import type { ActionFunctionArgs } from "@remix-run/node";
import { leaveChannel } from "~/features/channels/channels.server";
import { jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { channelIdParam } from "~/features/channels/params.server";
import { removeFromCall } from "~/features/calls/removal.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb, userId } = await requireUser(request, context);
  await leaveChannel(pb, channelId, userId);
  await removeFromCall(channelId, userId);
  return jsonResponse({ ok: true });
}
