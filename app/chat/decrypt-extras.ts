import { decryptText } from "~/crypto";
import type { EncryptedAttachment, EncryptedPreview } from "~/chat-types";
import { attachmentKind, fileNameAad, previewAad, type AttachmentKind } from "~/chat/attachments";

// Decryption of the parts that travel with a message: attachment names and link previews.

export interface DecryptedAttachment {
  id: string;
  messageId: string;
  name: string;
  size: number;
  type: string;
  kind: AttachmentKind;
  storagePath: string;
  channelId: string;
}

export interface DecryptedPreview {
  id: string;
  messageId: string;
  url: string;
  title: string;
  description: string;
  imageType: string;
  hasImage: boolean;
  channelId: string;
}

/** Decrypts attachment names; anything that fails, or was not uploaded by the message's sender, is left out. */
export async function decryptAttachments(key: CryptoKey, channelId: string, senderId: string, list: EncryptedAttachment[] = []) {
  const out = await Promise.all(
    list.map(async (a): Promise<DecryptedAttachment | null> => {
      if (a.uploadedBy !== senderId || a.channelId !== channelId) return null;
      try {
        const name = await decryptText(key, a.fileName, fileNameAad(channelId, a.storagePath));
        return { id: a.id, messageId: a.messageId, name, size: a.fileSize, type: a.fileType, kind: attachmentKind(a.fileType), storagePath: a.storagePath, channelId };
      } catch {
        return null;
      }
    }),
  );
  return out.filter((a): a is DecryptedAttachment => a !== null);
}

export async function decryptPreviews(key: CryptoKey, channelId: string, list: EncryptedPreview[] = []) {
  const out = await Promise.all(
    list.map(async (p): Promise<DecryptedPreview | null> => {
      if (p.channelId !== channelId) return null;
      try {
        const field = (name: string, value: string) => (value ? decryptText(key, value, previewAad(channelId, p.messageId, name)) : Promise.resolve(""));
        const [url, title, description, imageType] = await Promise.all([
          field("url", p.url),
          field("title", p.title),
          field("description", p.description),
          field("image_url", p.imageUrl),
        ]);
        if (!/^https?:\/\//i.test(url)) return null;
        return { id: p.id, messageId: p.messageId, url, title, description, imageType, hasImage: p.hasImage, channelId };
      } catch {
        return null;
      }
    }),
  );
  return out.filter((p): p is DecryptedPreview => p !== null);
}

