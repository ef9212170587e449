import { decryptBytes, sha256Bytes } from "~/crypto";
import { bytesBlob, cachedObjectUrl, fetchBytes } from "~/lib/blob-url.client";
import { downloadUrl } from "~/lib/download.client";
import { ChatError } from "~/lib/errors";
import type { Channel } from "~/conversation/channels/types";
import type { ConversationCrypto } from "~/conversation/types";
import { fileAad } from "~/conversation/files/attachments";
import type { DecryptedAttachment } from "~/conversation/files/decrypt";

export type { DecryptedAttachment };

/** Downloads and decrypts a file, and checks it is the very file its message signed. */
export function attachmentUrl(conversation: ConversationCrypto, attachment: DecryptedAttachment): Promise<string> {
  return cachedObjectUrl(attachment.id, async () => {
    const key = await conversation.contentKey(attachment.itemKey);
    if (!key) throw new ChatError("Channel password not found");
    const plain = await decryptBytes(key, await fetchBytes(`/api/attachments/${attachment.id}`), fileAad(attachment));
    if (!attachment.signedHashes.includes(await sha256Bytes(plain))) throw new ChatError("This file does not match its message.");
    return bytesBlob(plain, attachment.type || "application/octet-stream");
  });
}

/** Saves a decrypted attachment under its original name. */
export async function saveAttachment(conversation: ConversationCrypto, attachment: DecryptedAttachment) {
  downloadUrl(await attachmentUrl(conversation, attachment), attachment.name);
}

/** The message that carries a file: what the file is bound to, and where its decrypted attachment goes. */
export interface FileCarrier {
  id: string;
  attachments: DecryptedAttachment[];
}

/** Posts the encrypted, signed message that carries a file's SHA-256 and its caption (the messages feature does this). */
export type PostCarrier<M extends FileCarrier> = (channel: Channel, fileHash: string, itemKey?: string, caption?: string) => Promise<M>;
