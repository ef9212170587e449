import type { ActionFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { param, removeAndBan, userIdSchema } from "~/features/invites/invites.server";
import { removeFromCall } from "~/features/calls/removal.server";
import { fail, jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** A channel admin removes a member, who is banned from the channel (and out of its call too). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const member = param(userIdSchema, params.userId);
  const { pb, userId: caller } = await requireUser(request, context);
  if (member === caller) fail(400, "Use Leave to leave a channel.");
  await removeAndBan(pb, channelId, member);
  await removeFromCall(channelId, member);
  return jsonResponse({ ok: true });
}
