import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { recordTime } from "~/lib/schemas";
import { channelIdParam } from "~/features/channels/params.server";
import { markRead } from "~/features/unread/unread.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const readSchema = z.object({ at: recordTime }).strict();

/** The caller has read the channel up to `at` (the time of the newest message they saw). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb, userId } = await requireUser(request, context);
  const body = await readJson(request, readSchema);
  return jsonResponse({ lastRead: await markRead(pb, userId, channelId, body.at) });
}
