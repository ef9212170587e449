/** Shapes that travel between the web server and the page. Message content is always ciphertext here. */
export interface Channel {
  id: string;
  name: string;
  createdBy: string;
  created: string;
  kdfIterations: number;
}

export interface EncryptedMessage {
  id: string;
  channelId: string;
  senderId: string;
  encryptedContent: string;
  created: string;
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
  | { type: "message-deleted"; channelId: string; messageId: string };
