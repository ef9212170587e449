import type { ActionFunctionArgs } from "@remix-run/node";
import { channelRetentionRequest, saveChannelRetention } from "~/features/retention/retention.server";
import { jsonResponse } from "~/server/http.server";

/** POST /api/channels/:id/retention {days}: a channel admin's shorter period (0: the workspace's), where the workspace allows it. */
export async function action(args: ActionFunctionArgs) {
  const { pb, channelId, days } = await channelRetentionRequest(args);
  const saved = await saveChannelRetention(pb, channelId, days);
  return jsonResponse({ channelDays: saved.channel_days, workspaceDays: saved.workspace_days });
}
