import type { LoaderFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { callRecords } from "~/features/calls/records.server";
import { jsonResponse, requireUser } from "~/server/http.server";

// GET /api/calls/:id/records: the conversation's latest ended calls, when each began and ended (members only).
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const conversationId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  return jsonResponse({ records: await callRecords(pb, conversationId) });
}
