import type { ActionFunctionArgs } from "@remix-run/node";
import { createDirect } from "~/features/direct/direct.server";
import { createDirectSchema } from "~/features/direct/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// POST /api/direct {id, participants}: a new direct conversation, or the one-to-one that exists (a
// group's name never comes here: it is sealed inside the conversation, api.direct.$id.name.ts).
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, createDirectSchema);
  return jsonResponse(await createDirect(pb, { id: body.id, participants: body.participants }));
}
