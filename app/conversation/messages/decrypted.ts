import type { DecryptedAttachment } from "~/conversation/files/decrypt";
import type { DecryptedPreview } from "~/conversation/link-previews/decrypt";
import type { ReactionCount } from "~/conversation/messages/annotations";

/** A message as the page shows it: opened, verified, with its reactions, thread and files. */
export interface DecryptedMessage {
  id: string;
  channelId: string;
  senderId: string;
  senderUsername: string;
  text: string;
  created: string;
  own: boolean;
  /** Fingerprints of the files this message carries, from its signed payload. */
  fileHashes: string[];
  /** The message this one replies to (from its signed payload). */
  replyTo?: string;
  /** Where each message has its own key for its files and previews (MLS): that key, from its signed payload. */
  itemKey?: string;
  /** Set when the text is the sender's latest edit. */
  edited?: boolean;
  reactions?: ReactionCount[];
  /** Who pinned it, while it is pinned. */
  pinnedBy?: string;
  /** A reply in the thread of this root; `threadOnly` when it is not shown in the channel. */
  thread?: string;
  threadOnly?: boolean;
  /** A root's thread: its replies, the last one's time, who wrote them (usernames). */
  replies?: { count: number; last: string; people: string[] };
  attachments: DecryptedAttachment[];
  previews: DecryptedPreview[];
  /** Signed by an earlier identity key of the sender's than their current one, which the viewer had pinned (ADR 0051). */
  previousKey?: true;
  /** A thread's first message this device cannot read (sent before it joined), standing for its replies (unreadable.ts). */
  unreadable?: true;
}
