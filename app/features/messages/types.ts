import type { EncryptedAttachment } from "~/features/files/types";
import type { EncryptedPreview } from "~/features/link-previews/types";

/** What an annotation record is: an edit, a reaction, or a pin (pinning or unpinning: which, is inside). */
export type AnnotationKind = "edit" | "reaction" | "pin";

/** Shapes that travel between the web server and the page; content is always ciphertext here. */
export interface EncryptedMessage {
  id: string;
  channelId: string;
  senderId: string;
  encryptedContent: string;
  created: string;
  /** An edit of, a reaction to, or a pin event of the message `targetId`; absent for a message. */
  kind?: AnnotationKind;
  targetId?: string;
  /** A sealed channel's message: the MLS epoch it was encrypted for. */
  epoch?: number;
  attachments?: EncryptedAttachment[];
  previews?: EncryptedPreview[];
}
