import type { AppLoadContext } from "@remix-run/node";
import { messagePageSchema } from "~/features/messages/validation";
import { channelIdParam } from "~/features/channels/params.server";
import { listMessages } from "~/features/messages/messages.server";
import { fail, requireUser } from "~/server/http.server";
import type { RequestLike } from "~/server/request-like.server";

/**
 * GET /api/channels/:id/messages: one page of a channel's history (the query as messagePageSchema
 * reads it). The Remix route and the fast route (app/fast-routes.server.ts) both answer it here.
 */
export async function messagePage(
  request: Pick<RequestLike, "headers"> & { url: string },
  params: Record<string, string | undefined>,
  context: AppLoadContext,
) {
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const query = messagePageSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) fail(400, "Invalid message page.");
  return listMessages(pb, channelId, query.data);
}
