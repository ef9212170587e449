import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { channelIdParam } from "~/features/channels/params.server";
import { removeMember } from "~/features/members/members.server";
import { removeFromCall } from "~/features/calls/removal.server";
import { fail, jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const userId = z.string().regex(/^[a-z0-9]{15}$/);

/** The channel's creator removes a member (out of the channel's call too). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const member = userId.safeParse(params.userId ?? "");
  if (!member.success) fail(400, "Invalid user id.");
  const { pb, userId: caller } = await requireUser(request, context);
  if (member.data === caller) fail(400, "Use Leave to leave a channel.");
  await removeMember(pb, channelId, member.data);
  await removeFromCall(channelId, member.data);
  return jsonResponse({ ok: true });
}
