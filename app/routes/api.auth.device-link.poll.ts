import type { ActionFunctionArgs } from "@remix-run/node";
import { pollLink } from "~/features/device-link/device-link.server";
import { secretSchema } from "~/features/device-link/validation";
import { jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { sessionUser } from "~/server/session.server";

// POST /api/auth/device-link/poll {id, secret}: how the new device's request stands; approved (once),
// the keys sealed to it and, for a sign-in, the session a password sign-in gets.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const body = await readJson(request, secretSchema);
  const { token } = await sessionUser(request);
  const { answer, headers } = await pollLink(request, context, { ...body, token });
  return jsonResponse(answer, 200, headers);
}
