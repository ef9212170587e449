import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { lookupUser, sharedPeople } from "~/features/direct/direct.server";
import { lookupSchema } from "~/features/direct/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// GET /api/people: the people the caller shares a channel with.
// POST /api/people {username}: the user with exactly this username, or null (rate-limited).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse({ people: await sharedPeople(pb) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, lookupSchema);
  return jsonResponse(await lookupUser(pb, body.username));
}
