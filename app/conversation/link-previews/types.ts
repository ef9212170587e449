/** Shapes that travel between the web server and the page; content is always ciphertext here. */
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
