/** Shapes that travel between the web server and the page; content is always ciphertext here. */
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
