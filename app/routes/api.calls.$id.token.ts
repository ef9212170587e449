import type { ActionFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { callTicket } from "~/features/calls/calls.server";
import { callTicketSchema } from "~/features/calls/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// POST /api/calls/:id/token {device}: a member's device gets a short LiveKit token for the
// conversation's call, and the LiveKit address ({url, token}); anyone else gets 404.
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const conversationId = channelIdParam(params);
  const { pb, userId, token } = await requireUser(request, context);
  const body = await readJson(request, callTicketSchema);
  return jsonResponse(await callTicket(pb, { userId, token, context }, conversationId, body.device));
}
