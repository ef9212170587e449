import type { ActionFunctionArgs } from "@remix-run/node";
import { attachmentFieldsSchema } from "~/features/channels/validation";
import { createAttachment, uploadLimitBytes } from "~/features/files/attachments.server";
import { fail, jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { fileField, readMultipart } from "~/server/multipart.server";
import { channelIdParam } from "~/features/channels/params.server";

// AES-GCM adds a 12-byte IV and a 16-byte tag to every file.
const CIPHER_OVERHEAD_BYTES = 28;

/** Stores an encrypted file or audio recording for one of the caller's own messages. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb, userId } = await requireUser(request, context);
  const limit = uploadLimitBytes();
  const limitText = `The file is larger than the limit of ${Math.round(limit / (1024 * 1024))} MB.`;
  const form = await readMultipart(request, limit + CIPHER_OVERHEAD_BYTES, limitText);
  const fields = attachmentFieldsSchema.safeParse(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")));
  if (!fields.success) fail(400, fields.error.issues[0]?.message ?? "Invalid upload.");
  const { messageId, fileName, fileSize, fileType, storagePath } = fields.data;
  const pathPattern = new RegExp(`^${userId}/${channelId}/[0-9a-f-]{36}\\.[a-z0-9]{1,10}$`);
  if (!pathPattern.test(storagePath)) fail(400, "Invalid storage path.");
  if (fileSize > limit) fail(413, limitText);
  const file = fileField(form, "file");
  if (file.size !== fileSize + CIPHER_OVERHEAD_BYTES) fail(400, "The encrypted file does not match its declared size.");

  const upload = new FormData();
  upload.set("message", messageId);
  upload.set("channel", channelId);
  upload.set("uploaded_by", userId);
  upload.set("file_name", fileName);
  upload.set("file_size", String(fileSize));
  upload.set("file_type", fileType);
  upload.set("storage_path", storagePath);
  upload.set("file", new Blob([await file.arrayBuffer()], { type: "application/octet-stream" }), "encrypted.bin");
  return jsonResponse({ attachment: await createAttachment(pb, upload) });
}
