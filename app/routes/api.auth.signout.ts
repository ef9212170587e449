import type { ActionFunctionArgs } from "@remix-run/node";
import { jsonResponse, requireCsrf, requirePost } from "~/utils/http.server";
import { destroyAuth } from "~/utils/session.server";

export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  return jsonResponse({ ok: true }, 200, { "Set-Cookie": await destroyAuth(request) });
}
