import type { ActionFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { previewChannelRetention } from "~/features/retention/retention.server";
import { channelRetentionSchema } from "~/features/retention/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** POST /api/channels/:id/retention/preview {days}: how many messages that channel period deletes now (the channel's admins only: the hook checks). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const { days } = await readJson(request, channelRetentionSchema);
  const { messages } = await previewChannelRetention(pb, channelId, days);
  return jsonResponse({ messages });
}
