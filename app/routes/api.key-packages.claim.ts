import type { ActionFunctionArgs } from "@remix-run/node";
import { claimPackages, claimSchema } from "~/features/sealed/sealed.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// POST /api/key-packages/claim {userId}: one key package per device of a user the caller shares a
// channel with (one-time ones first, used up; the last-resort one after).
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const { userId } = await readJson(request, claimSchema);
  return jsonResponse(await claimPackages(pb, userId));
}
