import type { ActionFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { createInvite, createInviteSchema } from "~/features/invites/invites.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** A member makes an invite to the channel: {expires: "1d"|"7d"|"30d"|"never", maxUses: 1|10|0}. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const limits = await readJson(request, createInviteSchema);
  const made = await createInvite(pb, channelId, limits);
  return jsonResponse({ id: made.id, expires: made.expires, maxUses: made.max_uses });
}
