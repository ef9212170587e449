import { decryptText } from "~/crypto";
import type { EncryptedAttachment } from "~/conversation/files/types";
import { attachmentKind, fileNameAad, isStoragePathOf, type AttachmentKind, type FilePlace } from "~/conversation/files/attachments";

// Decryption of attachment names, the part of a file that travels with its message.

export interface DecryptedAttachment extends FilePlace {
  id: string;
  name: string;
  size: number;
  type: string;
  kind: AttachmentKind;
  /** The fingerprints the carrying message signed: the decrypted file must match one of them. */
  signedHashes: string[];
  /** In a sealed channel: the carrying message's own key, which the file is encrypted with. */
  itemKey?: string;
}

/** The message an attachment claims to belong to, as the page decrypted and verified it. */
export interface CarrierMessage {
  id: string;
  channelId: string;
  senderId: string;
  fileHashes: string[];
  itemKey?: string;
}

/**
 * Decrypts attachment names. Anything that fails, was not uploaded by the message's sender, is stored
 * outside the sender's folder of the channel, or belongs to a message that signed no file, is left out.
 */
export async function decryptAttachments(key: CryptoKey, message: CarrierMessage, list: EncryptedAttachment[] = []) {
  const out = await Promise.all(
    list.map(async (a): Promise<DecryptedAttachment | null> => {
      if (a.uploadedBy !== message.senderId || a.channelId !== message.channelId || a.messageId !== message.id) return null;
      if (!isStoragePathOf(a.storagePath, message.senderId, message.channelId) || message.fileHashes.length === 0) return null;
      const place: FilePlace = {
        channelId: message.channelId,
        messageId: message.id,
        senderId: message.senderId,
        storagePath: a.storagePath,
      };
      try {
        const name = await decryptText(key, a.fileName, fileNameAad(place));
        return {
          ...place,
          id: a.id,
          name,
          size: a.fileSize,
          type: a.fileType,
          kind: attachmentKind(a.fileType),
          signedHashes: message.fileHashes,
          ...(message.itemKey ? { itemKey: message.itemKey } : {}),
        };
      } catch {
        return null;
      }
    }),
  );
  return out.filter((a): a is DecryptedAttachment => a !== null);
}
