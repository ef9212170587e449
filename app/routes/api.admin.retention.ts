import type { ActionFunctionArgs } from "@remix-run/node";
import { saveWorkspaceRetention } from "~/features/retention/retention.server";
import { workspaceRetentionSchema } from "~/features/retention/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** POST /api/admin/retention {days, perChannel?, keepPinned?}: the workspace's policy (administrators only: the hook checks). */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, workspaceRetentionSchema);
  const saved = await saveWorkspaceRetention(pb, body);
  return jsonResponse({ days: saved.days, perChannel: saved.per_channel, keepPinned: saved.keep_pinned });
}
