import type { ActionFunctionArgs } from "@remix-run/node";
import { previewFieldsSchema } from "~/features/link-previews/validation";
import { createPreview } from "~/features/files/attachments.server";
import { fail, jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { readMultipart } from "~/server/multipart.server";
import { channelIdParam } from "~/features/channels/params.server";
import { issueWords } from "~/server/issue-words.server";

const MAX_PREVIEW_IMAGE_BYTES = 2 * 1024 * 1024;

/** Stores an encrypted link preview (text fields and optional image, all ciphertext) for the caller's message. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const form = await readMultipart(request, MAX_PREVIEW_IMAGE_BYTES, "The preview image is too large.");
  const fields = previewFieldsSchema.safeParse(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")));
  if (!fields.success) fail(400, issueWords(fields.error.issues[0]));
  const upload = new FormData();
  upload.set("message", fields.data.messageId);
  upload.set("channel", channelId);
  upload.set("url", fields.data.url);
  upload.set("title", fields.data.title);
  upload.set("description", fields.data.description);
  upload.set("image_url", fields.data.imageUrl);
  const image = form.get("image");
  if (image instanceof Blob && image.size > 0) {
    upload.set("image", new Blob([await image.arrayBuffer()], { type: "application/octet-stream" }), "preview.bin");
  }
  return jsonResponse({ preview: await createPreview(pb, upload) });
}
