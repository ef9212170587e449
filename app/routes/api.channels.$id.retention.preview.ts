import type { ActionFunctionArgs } from "@remix-run/node";
import { channelRetentionRequest, previewChannelRetention } from "~/features/retention/retention.server";
import { jsonResponse } from "~/server/http.server";

/** POST /api/channels/:id/retention/preview {days}: how many messages that channel period deletes now (the channel's admins only: the hook checks). */
export async function action(args: ActionFunctionArgs) {
  const { pb, channelId, days } = await channelRetentionRequest(args);
  const { messages } = await previewChannelRetention(pb, channelId, days);
  return jsonResponse({ messages });
}
