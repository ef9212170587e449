import type { ActionFunctionArgs } from "@remix-run/node";
import { deleteChannel } from "~/features/channels/channels.server";
import { jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { channelIdParam } from "~/features/channels/params.server";

// Only the creator may delete (PocketBase's delete rule); members, messages and files go with it.
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  await deleteChannel(pb, channelId);
  return jsonResponse({ ok: true });
}
