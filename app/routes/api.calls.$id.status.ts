import type { LoaderFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { callStatus } from "~/features/calls/calls.server";
import { jsonResponse, requireUser } from "~/server/http.server";

// GET /api/calls/:id/status: whether a call is going on in the conversation and how many are in it (members only).
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const conversationId = channelIdParam(params);
  const { pb, userId } = await requireUser(request, context);
  return jsonResponse(await callStatus(pb, conversationId, userId));
}
