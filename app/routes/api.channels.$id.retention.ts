import type { ActionFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { saveChannelRetention } from "~/features/retention/retention.server";
import { channelRetentionSchema } from "~/features/retention/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** POST /api/channels/:id/retention {days}: a channel admin's shorter period (0: the workspace's), where the workspace allows it. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const { days } = await readJson(request, channelRetentionSchema);
  const saved = await saveChannelRetention(pb, channelId, days);
  return jsonResponse({ channelDays: saved.channel_days, workspaceDays: saved.workspace_days });
}
