import type { ActionFunctionArgs } from "@remix-run/node";
import { jsonResponse, requireCsrf, requirePost } from "~/server/http.server";
import { destroyAuth } from "~/server/session.server";

export async function action({ request }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  return jsonResponse({ ok: true }, 200, { "Set-Cookie": await destroyAuth(request) });
}
