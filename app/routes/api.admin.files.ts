import type { ActionFunctionArgs } from "@remix-run/node";
import { filePolicySchema } from "~/features/files/validation";
import { saveFilePolicy } from "~/features/files/policy.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** POST /api/admin/files {types, maxMb}: files people can send (administrators only: the hook checks). */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, filePolicySchema);
  return jsonResponse(await saveFilePolicy(pb, body));
}
