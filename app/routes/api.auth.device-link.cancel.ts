import type { ActionFunctionArgs } from "@remix-run/node";
import { cancelLink } from "~/features/device-link/device-link.server";
import { secretSchema } from "~/features/device-link/validation";
import { jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { sessionUser } from "~/server/session.server";

// POST /api/auth/device-link/cancel {id, secret}: the new device withdraws its request.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const body = await readJson(request, secretSchema);
  const { token } = await sessionUser(request);
  await cancelLink(context, { ...body, token });
  return jsonResponse({ ok: true });
}
