/** Shapes that travel between the web server and the page. Message content is always ciphertext here. */
export interface Channel {
  id: string;
  name: string;
  createdBy: string;
  created: string;
  kdfIterations: number;
}

export interface EncryptedAttachment {
  id: string;
  messageId: string;
  channelId: string;
  /** Ciphertext of the original file name. */
  fileName: string;
  /** Size of the original (plaintext) file in bytes. */
  fileSize: number;
  fileType: string;
  /** Logical path `{userId}/{channelId}/{uuid}.{ext}`; bound into the encryption as associated data. */
  storagePath: string;
  uploadedBy: string;
}

export interface EncryptedPreview {
  id: string;
  messageId: string;
  channelId: string;
  url: string;
  title: string;
  description: string;
  imageUrl: string;
  hasImage: boolean;
}

export interface EncryptedMessage {
  id: string;
  channelId: string;
  senderId: string;
  encryptedContent: string;
  created: string;
  attachments?: EncryptedAttachment[];
  previews?: EncryptedPreview[];
}

export interface PublicProfile {
  id: string;
  username: string;
  ecdhPublicKey: string;
  rsaPublicKey: string;
}

/** Server-sent events forwarded to the page. */
export type LiveEvent =
  | { type: "sync" }
  | { type: "memberships" }
  | { type: "message"; message: EncryptedMessage }
  | { type: "message-deleted"; channelId: string; messageId: string }
  | { type: "attachment"; attachment: EncryptedAttachment }
  | { type: "preview"; preview: EncryptedPreview };
