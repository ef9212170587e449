import type { ActionFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { answerRequest } from "~/features/requests/requests.server";
import { answerSchema } from "~/features/requests/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// POST /api/direct/:id/answer {answer: "accept" | "decline" | "block"}: the caller's answer to their request.
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, answerSchema);
  return jsonResponse(await answerRequest(pb, channelId, body.answer));
}
