import { toAttachment, toPreview, type AttachmentRecord, type PreviewRecord } from "~/features/files/attachments.server";
import type { LiveEvent } from "~/features/live/types";
import { toMessage } from "~/features/messages/messages.server";

/** The page's frames for live events: each relay event becomes its frame once (relay.server.ts). */
export const liveFrame = (event: LiveEvent) => Buffer.from(`data: ${JSON.stringify(event)}\n\n`);
export const SYNC_FRAME = liveFrame({ type: "sync" });
const MEMBERSHIPS_FRAME = liveFrame({ type: "memberships" });
const MEMBERS_FRAME = liveFrame({ type: "members" });
const DEVICE_LINKS_FRAME = liveFrame({ type: "device-links" });
const STANDING_FRAME = liveFrame({ type: "standing" });
const NOTIFY_RULES_FRAME = liveFrame({ type: "notify-rules" });
const THREADS_SEEN_FRAME = liveFrame({ type: "threads-seen" });
const RETENTION_FRAME = liveFrame({ type: "retention" });

/** The conversation and the member an event of a member's page is from. */
const byMember = (channel: string, sender: unknown) => ({ channelId: channel, userId: String(sender ?? "") });

/** The page's frame for one relay event, and whether it is for streams open on one channel only. */
export function frameFor(
  kind: string,
  record: Record<string, unknown> | null | undefined,
): { frame: Uint8Array; channel: string | null } | null {
  if (kind === "memberships") return { frame: MEMBERSHIPS_FRAME, channel: null };
  // a new device asks for approval, or a request was answered (ADR 0059): every page of the account
  if (kind === "device-links") return { frame: DEVICE_LINKS_FRAME, channel: null };
  // the user's role, or who may create channels, changed (pocketbase/standing.go): every page of theirs
  if (kind === "standing") return { frame: STANDING_FRAME, channel: null };
  // the user's notification choices changed (pocketbase/notify_rules_live.go): every page of theirs
  if (kind === "notify-rules") return { frame: NOTIFY_RULES_FRAME, channel: null };
  // the user saw a thread on one of their devices (pocketbase/threads_seen_live.go): every page of theirs
  if (kind === "threads-seen") return { frame: THREADS_SEEN_FRAME, channel: null };
  // someone reactivated whom the user has a one-to-one with (pocketbase/reactivated.go): every page of theirs
  if (kind === "member-reactivated" && typeof record?.user === "string")
    return { frame: liveFrame({ type: "member-reactivated", userId: record.user, name: String(record.name ?? "") }), channel: null };
  // the retention policy changed, the workspace's or a channel's (pocketbase/retention_live.go): every page
  if (kind === "retention") return { frame: RETENTION_FRAME, channel: null };
  // someone who shares a conversation with the user has new identity keys (pocketbase/keys_live.go): every page of theirs
  if (kind === "keys" && typeof record?.user === "string")
    return { frame: liveFrame({ type: "keys", userId: record.user }), channel: null };
  // one of the user's devices saved their key pins (pocketbase/key_pins_live.go): every page of theirs
  if (kind === "key-pins" && Number.isInteger(record?.counter))
    return { frame: liveFrame({ type: "key-pins", counter: record!.counter as number }), channel: null };
  if (!record || typeof record.channel !== "string") return null;
  switch (kind) {
    case "members":
      return { frame: MEMBERS_FRAME, channel: record.channel };
    case "removed":
      // an admin removed the user from the channel (pocketbase/broadcast.go): every page of theirs
      return { frame: liveFrame({ type: "removed", channelId: record.channel }), channel: null };
    case "archive":
      // the user's archive of the conversation grew (pocketbase/archive_live.go): every page of theirs
      return { frame: liveFrame({ type: "archive", channelId: record.channel }), channel: null };
    case "unread":
      // the user's unread count there changed other than by a new message (pocketbase/unread.go): every page of theirs
      return { frame: liveFrame({ type: "unread", channelId: record.channel }), channel: null };
    case "message":
      return { frame: liveFrame({ type: "message", message: toMessage(record as Parameters<typeof toMessage>[0]) }), channel: null };
    case "message-deleted": {
      // (a thread's reply: the root it belonged to, so the "N replies" under the root counts one less)
      const thread = !record.kind && typeof record.thread === "string" && record.thread ? { thread: record.thread } : {};
      return {
        frame: liveFrame({ type: "message-deleted", channelId: record.channel, messageId: String(record.id), ...thread }),
        channel: record.channel,
      };
    }
    case "gone": {
      // a retention sweep's batch or a member's deletion (pocketbase/gone.go): every stream of the members,
      // whichever conversation it has open, since the page's search index holds them all
      const messageIds = Array.isArray(record.ids) ? record.ids.filter((id): id is string => typeof id === "string") : [];
      return { frame: liveFrame({ type: "gone", channelId: record.channel, messageIds }), channel: null };
    }
    case "attachment":
      return { frame: liveFrame({ type: "attachment", attachment: toAttachment(record as AttachmentRecord) }), channel: record.channel };
    case "preview":
      return { frame: liveFrame({ type: "preview", preview: toPreview(record as PreviewRecord) }), channel: record.channel };
    case "typing":
      return {
        frame: liveFrame({ type: "typing", ...byMember(record.channel, record.sender), data: String(record.data ?? "") }),
        channel: record.channel,
      };
    case "call": {
      // ("ended": PocketBase recorded the call, pocketbase/call_records.go; "declined": a member's page declined its ring)
      const event = record.event === "joined" || record.event === "ended" || record.event === "declined" ? record.event : "left";
      const call = {
        type: "call" as const,
        ...byMember(record.channel, record.sender),
        name: String(record.name ?? ""),
        event,
        ring: record.ring === true,
      } as const;
      // every stream of the members, whichever conversation it has open: a direct call rings anywhere
      return { frame: liveFrame(call), channel: null };
    }
    case "member-deactivated":
      // to every stream of the remaining members: one of their pages commits the removal (ADR 0056)
      return {
        frame: liveFrame({
          type: "member-deactivated",
          ...byMember(record.channel, record.user),
          name: String(record.name ?? ""),
          // (the group's epoch once the membership ended: a page at it commits at once)
          ...(typeof record.epoch === "number" ? { epoch: record.epoch, generation: Number(record.generation ?? 0) } : {}),
        }),
        channel: null,
      };
    case "epoch":
      // to every stream of the members: a page that knows a group's name seals it again (ADR 0050)
      return { frame: liveFrame({ type: "epoch", channelId: record.channel, epoch: Number(record.epoch) }), channel: null };
    case "group-reset":
      // to every stream of the members: an open page joins the new group at once (ADR 0049)
      return { frame: liveFrame({ type: "group-reset", ...byMember(record.channel, record.user) }), channel: null };
    default:
      return null;
  }
}
