import type { ActionFunctionArgs } from "@remix-run/node";
import { startLink } from "~/features/device-link/device-link.server";
import { startSchema } from "~/features/device-link/validation";
import { jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { sessionUser } from "~/server/session.server";

// POST /api/auth/device-link {identity, deviceKey}: a new device asks to be approved from a signed-in
// one (signed out: a sign-in; signed in: only the keys travel). Answers {id, secret, expires}.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const body = await readJson(request, startSchema);
  const { token } = await sessionUser(request);
  return jsonResponse(await startLink(request, context, { ...body, token }));
}
