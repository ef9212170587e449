import { decryptBytes, decryptText, encryptBytes, encryptText, randomUuid } from "~/crypto";
import { api, ApiError } from "~/api.client";
import type { Channel, EncryptedAttachment, EncryptedPreview } from "~/chat-types";
import {
  attachmentKind,
  fileAad,
  fileExtension,
  fileNameAad,
  firstUrl,
  previewableUrl,
  previewAad,
  storagePathFor,
  type AttachmentKind,
} from "~/chat/attachments";
import { ChatError, channelKey, postEnvelope, type DecryptedMessage } from "~/chat/chat.client";
import { decryptAttachments, decryptPreviews, type DecryptedAttachment, type DecryptedPreview } from "~/chat/decrypt-extras";

export type { DecryptedAttachment, DecryptedPreview };
import type { SessionUser } from "~/session-user";
import { uploadWithProgress } from "~/upload.client";

// ---- downloads: fetched once, decrypted in the browser, kept as object URLs for the page's life ----
const blobUrls = new Map<string, Promise<string>>();

async function fetchBytes(path: string): Promise<Uint8Array> {
  const response = await fetch(path, { credentials: "same-origin" });
  if (!response.ok) throw new ChatError("The file could not be downloaded.");
  return new Uint8Array(await response.arrayBuffer());
}

export function attachmentUrl(channel: Channel, attachment: DecryptedAttachment): Promise<string> {
  let url = blobUrls.get(attachment.id);
  if (!url) {
    url = (async () => {
      const key = await channelKey(channel);
      if (!key) throw new ChatError("Channel password not found");
      const plain = await decryptBytes(key, await fetchBytes(`/api/attachments/${attachment.id}`), fileAad(channel.id, attachment.storagePath));
      return URL.createObjectURL(new Blob([plain as Uint8Array<ArrayBuffer>], { type: attachment.type || "application/octet-stream" }));
    })();
    blobUrls.set(attachment.id, url);
    url.catch(() => blobUrls.delete(attachment.id));
  }
  return url;
}

export function previewImageUrl(channel: Channel, preview: DecryptedPreview): Promise<string> {
  const cacheKey = `preview:${preview.id}`;
  let url = blobUrls.get(cacheKey);
  if (!url) {
    url = (async () => {
      const key = await channelKey(channel);
      if (!key) throw new ChatError("Channel password not found");
      const plain = await decryptBytes(key, await fetchBytes(`/api/previews/${preview.id}/image`), previewAad(channel.id, preview.messageId, "image"));
      return URL.createObjectURL(new Blob([plain as Uint8Array<ArrayBuffer>], { type: preview.imageType.startsWith("image/") ? preview.imageType : "" }));
    })();
    blobUrls.set(cacheKey, url);
    url.catch(() => blobUrls.delete(cacheKey));
  }
  return url;
}

/** Saves a decrypted attachment under its original name. */
export async function saveAttachment(channel: Channel, attachment: DecryptedAttachment) {
  const url = await attachmentUrl(channel, attachment);
  const link = document.createElement("a");
  link.href = url;
  link.download = attachment.name;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

// ---- uploads ----
export class UploadError extends ChatError {}

/**
 * Sends a file (or an audio recording): an encrypted, signed message first, then the encrypted file
 * bound to it. The name is encrypted too; the server learns only size and type.
 */
export async function sendFile(
  user: SessionUser,
  channel: Channel,
  file: File,
  options: { limitBytes: number; onProgress?: (fraction: number) => void; failure: string },
): Promise<DecryptedMessage> {
  if (file.size > options.limitBytes) {
    throw new UploadError(`The file is larger than the limit of ${Math.round(options.limitBytes / (1024 * 1024))} MB.`);
  }
  const key = await channelKey(channel);
  if (!key) throw new UploadError("Channel password not found");
  const storagePath = storagePathFor(user.id, channel.id, randomUuid(), fileExtension(file.name));
  const [ciphertext, encryptedName] = await Promise.all([
    file.arrayBuffer().then((buffer) => encryptBytes(key, new Uint8Array(buffer), fileAad(channel.id, storagePath))),
    encryptText(key, file.name, fileNameAad(channel.id, storagePath)),
  ]);
  let message: DecryptedMessage;
  try {
    message = await postEnvelope(user, channel, "");
  } catch (error) {
    throw new UploadError(error instanceof ChatError ? error.message : options.failure);
  }
  const form = new FormData();
  form.set("messageId", message.id);
  form.set("fileName", encryptedName);
  form.set("fileSize", String(file.size));
  form.set("fileType", file.type);
  form.set("storagePath", storagePath);
  form.set("file", new Blob([ciphertext as Uint8Array<ArrayBuffer>], { type: "application/octet-stream" }), "encrypted.bin");
  let attachment: EncryptedAttachment;
  try {
    ({ attachment } = await uploadWithProgress<{ attachment: EncryptedAttachment }>(`/api/channels/${channel.id}/attachments`, form, options.onProgress));
  } catch (error) {
    const reason = error instanceof ApiError && error.status === 413 ? ` ${error.message}` : "";
    throw new UploadError(`${options.failure}${reason ? `:${reason}` : ""}`);
  }
  message.attachments = await decryptAttachments(key, channel.id, user.id, [attachment]);
  return message;
}

/**
 * For the first URL of a message: the server fetches title, description and image, the sender encrypts
 * them and stores the preview. Failure is only logged (spec §8).
 */
export async function attachLinkPreview(channel: Channel, message: DecryptedMessage): Promise<DecryptedPreview | null> {
  const found = firstUrl(message.text);
  const url = found && previewableUrl(found, window.location.origin);
  if (!url) return null;
  try {
    const key = await channelKey(channel);
    if (!key) return null;
    const result = await api<{ success: boolean; title: string; description: string; image: string }>("/api/link-preview", { url });
    if (!result.success || (!result.title && !result.description)) return null;
    let imageBytes: Uint8Array | null = null;
    let imageType = "";
    const dataUrl = /^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/=]+)$/.exec(result.image);
    if (dataUrl) {
      imageType = dataUrl[1];
      imageBytes = Uint8Array.from(atob(dataUrl[2]), (c) => c.charCodeAt(0));
    }
    const aad = (field: string) => previewAad(channel.id, message.id, field);
    const form = new FormData();
    form.set("messageId", message.id);
    form.set("url", await encryptText(key, url, aad("url")));
    form.set("title", await encryptText(key, result.title.slice(0, 300), aad("title")));
    form.set("description", await encryptText(key, result.description.slice(0, 1000), aad("description")));
    form.set("imageUrl", imageType ? await encryptText(key, imageType, aad("image_url")) : "");
    if (imageBytes) form.set("image", new Blob([(await encryptBytes(key, imageBytes, aad("image"))) as Uint8Array<ArrayBuffer>]), "preview.bin");
    const { preview } = await uploadWithProgress<{ preview: EncryptedPreview }>(`/api/channels/${channel.id}/previews`, form);
    const [decrypted] = await decryptPreviews(key, channel.id, [preview]);
    return decrypted ?? null;
  } catch (error) {
    console.warn("Link preview failed", error);
    return null;
  }
}

