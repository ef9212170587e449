import type { ActionFunctionArgs } from "@remix-run/node";
import { claimPackages, claimSchema } from "~/features/sealed/sealed.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// POST /api/key-packages/claim {userId, channelId}: one key package per device of a member of a
// conversation the caller is in (one-time ones first, used up; the last-resort one after), the same
// ones again when claimed again for that conversation.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  return jsonResponse(await claimPackages(pb, await readJson(request, claimSchema)));
}
