import type { ActionFunctionArgs } from "@remix-run/node";
import { callHook } from "~/server/hooks.server";
import { jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { channelIdParam } from "~/features/channels/params.server";

// Clear Messages: creator only, every message of the channel in one transaction (PocketBase hook).
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const result = await callHook<{ deleted: number }>(pb, `/api/chat/channels/${channelId}/clear`, {}, "Failed to clear messages");
  return jsonResponse({ deleted: result.deleted });
}
