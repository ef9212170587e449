import type { EncryptedMessage } from "~/conversation/messages/types";
import type { EncryptedAttachment } from "~/conversation/files/types";
import type { EncryptedPreview } from "~/conversation/link-previews/types";

/** Server-sent events forwarded to the page. */
export type LiveEvent =
  | { type: "sync" }
  | { type: "memberships" }
  | { type: "members" }
  /** An admin removed the user from the channel (a ban; pocketbase/broadcast.go): the page says so before the list drops it. */
  | { type: "removed"; channelId: string }
  /** A new device of the account asks to be approved, or a request was answered (docs/decisions/0059-device-approval.md). */
  | { type: "device-links" }
  | { type: "message"; message: EncryptedMessage }
  /** `thread`: the root of the thread the deleted message was a reply in (to pages open on the conversation only). */
  | { type: "message-deleted"; channelId: string; messageId: string; thread?: string }
  /** The user read the conversation on another device, or a message they had not read was deleted: its count is read again (pocketbase/unread.go). */
  | { type: "unread"; channelId: string }
  /** Someone who shares a conversation with the user has new identity keys (a reset; pocketbase/keys_live.go). */
  | { type: "keys"; userId: string }
  /** One of the user's devices saved their key pins, with the head's counter (pocketbase/key_pins_live.go). */
  | { type: "key-pins"; counter: number }
  /** One of the user's devices kept what it read of the conversation in their archive (pocketbase/archive_live.go). */
  | { type: "archive"; channelId: string }
  | { type: "attachment"; attachment: EncryptedAttachment }
  | { type: "preview"; preview: EncryptedPreview }
  /** Someone is typing in the open conversation (never stored; `data` sealed where the conversation's keys allow). */
  | { type: "typing"; channelId: string; userId: string; data: string }
  /** An administrator changed the user's role, or who may create channels: the page asks again (ADR 0095). */
  | { type: "standing" }
  /** The user's notification choices changed (on another device): the page reads them again (pocketbase/notify_rules_live.go). */
  | { type: "notify-rules" }
  /** These messages of the conversation are gone, by a retention sweep or a member's deletion (to every page of its members: they leave the search index). */
  | { type: "gone"; channelId: string; messageIds: string[] }
  /** The workspace's or a conversation's retention period changed: the page reads the policy again (pocketbase/retention_live.go). */
  | { type: "retention" }
  /** The user saw a thread on one of their devices: the Threads view reads again (pocketbase/threads_seen_live.go). */
  | { type: "threads-seen" }
  /** A member's page joined or left the conversation's call; `ring`: they started it in a direct conversation (pocketbase/calls.go). */
  | { type: "call"; channelId: string; userId: string; name: string; event: "joined" | "left" | "ended" | "declined"; ring: boolean }
  /** An administrator deactivated a member of this conversation (pocketbase/deactivated.go): their devices are to be removed from its group. */
  /** `epoch`, `generation`: its MLS group as it stood then (none for a classic channel). */
  | { type: "member-deactivated"; channelId: string; userId: string; name: string; epoch?: number; generation?: number }
  /** An administrator reactivated someone the user has a one-to-one with (ADR 0056). */
  | { type: "member-reactivated"; userId: string; name: string }
  /** A commit moved the conversation's MLS group to `epoch` (pocketbase/epochs.go): its name is sealed again for it. */
  | { type: "epoch"; channelId: string; epoch: number }
  /** The conversation's creator (`userId`) replaced its MLS group (pocketbase/group_reset.go, ADR 0049). */
  | { type: "group-reset"; channelId: string; userId: string }
  /** The stream's session was signed out (elsewhere, or replaced by a password change): the stream ends. */
  | { type: "signed-out" };
