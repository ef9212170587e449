import type { ActionFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { addPeople } from "~/features/direct/direct.server";
import { addPeopleSchema } from "~/features/direct/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// POST /api/direct/:id/add {participants}: a member adds people to a group conversation.
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, addPeopleSchema);
  return jsonResponse(await addPeople(pb, channelId, body.participants));
}
