import type { ActionFunctionArgs } from "@remix-run/node";
import { previewWorkspaceRetention } from "~/features/retention/retention.server";
import { retentionPreviewSchema } from "~/features/retention/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** POST /api/admin/retention/preview {days, keepPinned?}: how many messages that period deletes now (administrators only: the hook checks). */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, retentionPreviewSchema);
  const { messages } = await previewWorkspaceRetention(pb, body);
  return jsonResponse({ messages });
}
