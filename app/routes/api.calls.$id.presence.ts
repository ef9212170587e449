import type { ActionFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { announceCall } from "~/features/calls/calls.server";
import { callPresenceSchema } from "~/features/calls/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireSessionCookie } from "~/server/http.server";

// POST /api/calls/:id/presence {event: "joined"|"left"|"declined", ring?}: the page joined or left the
// conversation's call, or declined its ring; the members' open pages are told at once (and a direct
// call rings).
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const conversationId = channelIdParam(params);
  const { token } = await requireSessionCookie(request);
  const body = await readJson(request, callPresenceSchema);
  await announceCall({ token, context }, conversationId, body);
  return jsonResponse({ ok: true });
}
