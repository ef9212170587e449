import type { EncryptedAttachment } from "~/features/files/types";
import type { EncryptedPreview } from "~/features/link-previews/types";

/** Shapes that travel between the web server and the page; content is always ciphertext here. */
export interface EncryptedMessage {
  id: string;
  channelId: string;
  senderId: string;
  encryptedContent: string;
  created: string;
  /** An edit of, or a reaction to, the message `targetId`; absent for a message. */
  kind?: "edit" | "reaction";
  targetId?: string;
  /** A sealed channel's message: the MLS epoch it was encrypted for. */
  epoch?: number;
  attachments?: EncryptedAttachment[];
  previews?: EncryptedPreview[];
}
