import type { AppLoadContext } from "@remix-run/node";
import type PocketBase from "pocketbase";
import type { EncryptedAttachment } from "~/conversation/files/types";
import type { EncryptedPreview } from "~/conversation/link-previews/types";
import { env } from "~/server/env.server";
import { fail } from "~/server/http.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";
import { forwardedFor } from "~/server/client-address.server";
import { failOnOutage } from "~/server/outage.server";
import type { MultipartStream } from "./multipart-out.server";

export type AttachmentRecord = {
  id: string;
  message: string;
  channel: string;
  file_name: string;
  file_size: number;
  file_type: string;
  storage_path: string;
  uploaded_by: string;
  file: string;
};

export type PreviewRecord = {
  id: string;
  message: string;
  channel: string;
  url: string;
  title: string;
  description: string;
  image_url: string;
  image: string;
};

export const ATTACHMENT_FIELDS = "id,message,channel,file_name,file_size,file_type,storage_path,uploaded_by,file";
export const PREVIEW_FIELDS = "id,message,channel,url,title,description,image_url,image";

export const toAttachment = (r: AttachmentRecord): EncryptedAttachment => ({
  id: r.id,
  messageId: r.message,
  channelId: r.channel,
  fileName: r.file_name,
  fileSize: r.file_size,
  fileType: r.file_type,
  storagePath: r.storage_path,
  uploadedBy: r.uploaded_by,
});

export const toPreview = (r: PreviewRecord): EncryptedPreview => ({
  id: r.id,
  messageId: r.message,
  channelId: r.channel,
  url: r.url,
  title: r.title,
  description: r.description,
  imageUrl: r.image_url,
  hasImage: Boolean(r.image),
});

export function uploadLimitBytes() {
  return env().UPLOAD_MAX_MB * 1024 * 1024;
}

/** What an upload for a message that is not the uploader's own in this conversation (or not there) is told. */
export const NOT_OWN_MESSAGE = "The message this file is for was not found among yours in this conversation.";

/** Stores an encrypted file, its body streamed as it arrives; PocketBase's create rule checks membership and that the message is the caller's. */
export async function createAttachment(pb: PocketBase, form: MultipartStream): Promise<EncryptedAttachment> {
  try {
    const path = "/api/collections/file_attachments/records";
    const headers = { "Content-Type": form.contentType };
    return toAttachment(
      await pb.send<AttachmentRecord>(path, { method: "POST", body: form.body, headers, query: { fields: ATTACHMENT_FIELDS } }),
    );
  } catch (error) {
    failOnOutage(error);
    const status = pbStatus(error);
    if (status === 429) fail(429, "Too many uploads at once. Please wait a moment.");
    // (PocketBase's "Failed to create record." is its create rule refusing: the message is not the uploader's own here)
    if (status === 400 && pbErrorMessage(error) === "Failed to create record.") fail(400, NOT_OWN_MESSAGE);
    if (status === 400 || status === 403 || status === 404)
      fail(status === 400 ? 400 : 403, pbErrorMessage(error) ?? "Failed to upload file");
    if (status === 413) fail(413, "The file is too large.");
    fail(502, "Failed to upload file");
  }
}

export async function createPreview(pb: PocketBase, form: FormData): Promise<EncryptedPreview> {
  try {
    return toPreview(await pb.collection("link_previews").create<PreviewRecord>(form, { fields: PREVIEW_FIELDS }));
  } catch (error) {
    const status = pbStatus(error);
    if (status >= 400 && status < 500) fail(status === 404 ? 403 : status, pbErrorMessage(error) ?? "Failed to save link preview");
    fail(502, "Failed to save link preview");
  }
}

/**
 * Streams a protected file (ciphertext) to a member: the record read passes the view rule first, then a
 * short-lived file token fetches the bytes, on the browser's behalf (its address for the rate limits).
 */
export async function streamProtectedFile(
  pb: PocketBase,
  context: AppLoadContext,
  collection: "file_attachments" | "link_previews",
  id: string,
  field: "file" | "image",
) {
  let record: { id: string; collectionId: string; collectionName: string } & Record<string, string>;
  try {
    record = await pb.collection(collection).getOne(id, { fields: `id,collectionId,collectionName,${field}` });
  } catch (error) {
    fail(pbStatus(error) === 404 ? 404 : 502, "File not found");
  }
  const name = record[field];
  if (!name) fail(404, "File not found");
  const token = await pb.files.getToken();
  const response = await fetch(pb.files.getURL(record, name, { token }), { headers: forwardedFor(context.clientIp) });
  if (!response.ok || !response.body) fail(response.status === 404 ? 404 : 502, "File not found");
  const headers = new Headers({
    "Content-Type": "application/octet-stream",
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  });
  const length = response.headers.get("content-length");
  if (length) headers.set("Content-Length", length);
  return new Response(response.body, { headers });
}
