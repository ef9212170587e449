import type { ActionFunctionArgs } from "@remix-run/node";
import { setWhoCanCreate } from "~/features/admin/admin.server";
import { settingsSchema } from "~/features/admin/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** POST /api/admin/settings {whoCanCreateChannels}: "everyone" or "admins" (administrators only: the hook checks). */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, settingsSchema);
  const saved = await setWhoCanCreate(pb, body.whoCanCreateChannels);
  return jsonResponse({ whoCanCreateChannels: saved.who_can_create_channels });
}
