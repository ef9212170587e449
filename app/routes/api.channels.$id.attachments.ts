import type { ActionFunctionArgs } from "@remix-run/node";
import { attachmentFieldsSchema } from "~/features/files/validation";
import { createAttachment } from "~/features/files/attachments.server";
import { MIB, tooLargeText } from "~/features/files/policy";
import { readFilePolicy } from "~/features/files/policy.server";
import { multipartStream } from "~/features/files/multipart-out.server";
import { takeUploadSlot } from "~/features/files/upload-slots.server";
import { streamUpload } from "~/features/files/upload-stream.server";
import { fail, jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { channelIdParam } from "~/features/channels/params.server";
import { issueWords } from "~/server/issue-words.server";

// AES-GCM adds a 12-byte IV and a 16-byte tag to every file.
const CIPHER_OVERHEAD_BYTES = 28;

/**
 * Stores an encrypted file or audio recording for one of the caller's own messages. The file goes on
 * to PocketBase as it arrives (ADR 66): its fields come first and are checked before any of it is sent.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb, userId } = await requireUser(request, context);
  // the workspace's limit (ADR 71), never past this server's own
  const { maxMb } = await readFilePolicy(pb);
  const limit = maxMb * MIB;
  const limitText = tooLargeText(maxMb);
  const release = takeUploadSlot(userId);
  try {
    const attachment = await streamUpload(request, {
      fileField: "file",
      maxFileBytes: limit + CIPHER_OVERHEAD_BYTES,
      limitText,
      onFile: async (upload) => {
        const fields = attachmentFieldsSchema.safeParse(Object.fromEntries(upload.fields));
        if (!fields.success) fail(400, issueWords(fields.error.issues[0]));
        const { messageId, fileName, fileSize, fileType, storagePath } = fields.data;
        const pathPattern = new RegExp(`^${userId}/${channelId}/[0-9a-f-]{36}\\.[a-z0-9]{1,10}$`);
        if (!pathPattern.test(storagePath)) fail(400, "Invalid storage path.");
        if (fileSize > limit) fail(413, limitText);
        const body = multipartStream(
          [
            ["message", messageId],
            ["channel", channelId],
            ["uploaded_by", userId],
            ["file_name", fileName],
            ["file_size", String(fileSize)],
            ["file_type", fileType],
            ["storage_path", storagePath],
          ],
          { field: "file", filename: "encrypted.bin", stream: upload.file, bytes: fileSize + CIPHER_OVERHEAD_BYTES },
        );
        try {
          return await createAttachment(pb, body);
        } catch (error) {
          if (upload.tooLarge()) fail(413, limitText);
          if (body.mismatched()) fail(400, "The encrypted file does not match its declared size.");
          throw error;
        }
      },
    });
    return jsonResponse({ attachment });
  } finally {
    release();
  }
}
