import { decryptText } from "~/crypto";
import type { EncryptedPreview } from "~/conversation/link-previews/types";
import { expectedPreviewUrl, previewAad } from "~/conversation/link-previews/link";

export interface DecryptedPreview {
  id: string;
  messageId: string;
  url: string;
  title: string;
  description: string;
  imageType: string;
  hasImage: boolean;
  channelId: string;
  /** In a sealed channel: the message's own key, which the preview is encrypted with. */
  itemKey?: string;
}

/** The message a preview claims to belong to, as the page decrypted and verified it. */
export interface PreviewedMessage {
  id: string;
  channelId: string;
  text: string;
  itemKey?: string;
}

/**
 * Decrypts a message's previews. A preview is shown only when its URL is exactly the previewable form of
 * the first URL in the message's own (signed) text: a server cannot attach a card that leads elsewhere.
 */
export async function decryptPreviews(
  key: CryptoKey,
  message: PreviewedMessage,
  list: EncryptedPreview[] = [],
  appOrigin = globalThis.location?.origin ?? "",
) {
  const expected = expectedPreviewUrl(message.text, appOrigin);
  if (!expected) return [];
  const out = await Promise.all(
    list.map(async (p): Promise<DecryptedPreview | null> => {
      if (p.channelId !== message.channelId || p.messageId !== message.id) return null;
      try {
        const field = (name: string, value: string) =>
          value ? decryptText(key, value, previewAad(message.channelId, p.messageId, name)) : Promise.resolve("");
        const [url, title, description, imageType] = await Promise.all([
          field("url", p.url),
          field("title", p.title),
          field("description", p.description),
          field("image_url", p.imageUrl),
        ]);
        if (url !== expected) return null;
        const itemKey = message.itemKey ? { itemKey: message.itemKey } : {};
        return {
          id: p.id,
          messageId: p.messageId,
          url,
          title,
          description,
          imageType,
          hasImage: p.hasImage,
          channelId: message.channelId,
          ...itemKey,
        };
      } catch {
        return null;
      }
    }),
  );
  return out.filter((p): p is DecryptedPreview => p !== null);
}
