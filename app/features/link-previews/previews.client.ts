import { decryptBytes, encryptBytes, encryptText } from "~/crypto";
import { api } from "~/lib/api.client";
import { bytesBlob, cachedObjectUrl, fetchBytes } from "~/lib/blob-url.client";
import { ChatError } from "~/lib/errors";
import type { ConversationCrypto } from "~/conversation/types";
import { uploadWithProgress } from "~/lib/upload.client";
import { decryptPreviews, type DecryptedPreview } from "~/conversation/link-previews/decrypt";
import { expectedPreviewUrl, previewAad } from "~/conversation/link-previews/link";
import type { EncryptedPreview } from "~/conversation/link-previews/types";

export type { DecryptedPreview };

/** A preview's image, fetched once by the server for the sender, decrypted here. */
export function previewImageUrl(conversation: ConversationCrypto, channelId: string, preview: DecryptedPreview): Promise<string> {
  return cachedObjectUrl(`preview:${preview.id}`, async () => {
    const key = await conversation.contentKey(preview.itemKey);
    if (!key) throw new ChatError("Channel password not found");
    const plain = await decryptBytes(
      key,
      await fetchBytes(`/api/previews/${preview.id}/image`),
      previewAad(channelId, preview.messageId, "image"),
    );
    return bytesBlob(plain, preview.imageType.startsWith("image/") ? preview.imageType : "");
  });
}

/**
 * For the first URL of a message: the server fetches title, description and image, the sender encrypts
 * them and stores the preview. Failure is only logged (spec §8).
 */
export async function attachLinkPreview(
  conversation: ConversationCrypto,
  channel: { id: string },
  message: { id: string; text: string; itemKey?: string },
): Promise<DecryptedPreview | null> {
  const url = expectedPreviewUrl(message.text, window.location.origin);
  if (!url) return null;
  try {
    const key = await conversation.contentKey(message.itemKey);
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
    if (imageBytes) form.set("image", bytesBlob(await encryptBytes(key, imageBytes, aad("image")), ""), "preview.bin");
    const { preview } = await uploadWithProgress<{ preview: EncryptedPreview }>(`/api/channels/${channel.id}/previews`, form);
    const [decrypted] = await decryptPreviews(
      key,
      { id: message.id, channelId: channel.id, text: message.text, itemKey: message.itemKey },
      [preview],
    );
    return decrypted ?? null;
  } catch (error) {
    console.warn("Link preview failed", error);
    return null;
  }
}
