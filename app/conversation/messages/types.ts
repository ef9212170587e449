import type { PublicProfile } from "~/conversation/senders/types";
import type { EncryptedAttachment } from "~/conversation/files/types";
import type { EncryptedPreview } from "~/conversation/link-previews/types";

/** What an annotation record is: an edit, a reaction, or a pin (pinning or unpinning: which, is inside). */
export type AnnotationKind = "edit" | "reaction" | "pin";

/** A page of history's threads: per root on the page, its replies, the last one's time and who wrote them. */
export interface ThreadSummary {
  root: string;
  replies: number;
  last: string;
  people: string[];
}

/** Shapes that travel between the web server and the page; content is always ciphertext here. */
export interface EncryptedMessage {
  id: string;
  channelId: string;
  senderId: string;
  encryptedContent: string;
  created: string;
  /** An edit of, a reaction to, or a pin event of the message `targetId`; absent for a message. */
  kind?: AnnotationKind | "reply";
  targetId?: string;
  /** A reply in a thread: its root (a reply of kind "reply" stays in the thread; one without a kind is in the channel too). */
  thread?: string;
  /** A sealed channel's message: the MLS epoch it was encrypted for. */
  epoch?: number;
  /** A reply arriving live: who takes part in its thread (its root's and replies' senders). */
  threadPeople?: string[];
  attachments?: EncryptedAttachment[];
  previews?: EncryptedPreview[];
}

/** A page of a channel's messages as the web server answers it (GET /api/channels/:id/messages). */
export interface MessagePage {
  messages: EncryptedMessage[];
  hasMore: boolean;
  /** Around a message: newer ones follow. */
  hasNewer?: boolean;
  /** With count=1: the channel's number of messages. */
  totalItems?: number;
  threads?: ThreadSummary[];
  /** With profiles=1: the page's senders' public profiles. */
  profiles?: PublicProfile[];
}
