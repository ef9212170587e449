import type { ActionFunctionArgs } from "@remix-run/node";
import { linkPreviewRequestSchema } from "~/features/link-previews/validation";
import { callHook } from "~/server/hooks.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/**
 * The spec's fetch-link-preview: PocketBase fetches the page (and its image) behind an SSRF guard, so the
 * recipients' browsers never contact the linked site. The sender encrypts the result before storing it.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const { url } = await readJson(request, linkPreviewRequestSchema);
  const result = await callHook<{ success: boolean; title?: string; description?: string; image?: string }>(
    pb,
    "/api/chat/link-preview",
    { url },
    "Link preview failed",
  );
  return jsonResponse({
    success: Boolean(result.success),
    title: result.success ? (result.title ?? "") : "",
    description: result.success ? (result.description ?? "") : "",
    image: result.success ? (result.image ?? "") : "",
  });
}
