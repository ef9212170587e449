import type { LoaderFunctionArgs } from "@remix-run/node";
import { eventStream } from "remix-utils/sse/server";
import type { LiveEvent } from "~/features/live/types";
import { channelIdSchema } from "~/features/channels/validation";
import { fail, requireUser } from "~/server/http.server";
import {
  ATTACHMENT_FIELDS,
  PREVIEW_FIELDS,
  toAttachment,
  toPreview,
  type AttachmentRecord,
  type PreviewRecord,
} from "~/features/files/attachments.server";
import { toMessage } from "~/features/messages/messages.server";
import { openRealtime, topicWithOptions } from "~/features/live/realtime.server";

const HEARTBEAT_MS = 25_000;
const MESSAGES_TOPIC = "chatcrypt/messages";
// The user's own memberships that ended (left elsewhere, or removed by the channel's creator).
const MEMBERSHIPS_TOPIC = "chatcrypt/memberships";

// A new message is the same event for every member's stream: serialise it once.
const FRAME_CACHE_ENTRIES = 256;
const messageFrames = new Map<string, string>();
function messageFrame(record: Parameters<typeof toMessage>[0]): string {
  const key = `${record.id}:${record.created}`;
  let frame = messageFrames.get(key);
  if (frame === undefined) {
    frame = JSON.stringify({ type: "message", message: toMessage(record) } satisfies LiveEvent);
    if (messageFrames.size >= FRAME_CACHE_ENTRIES) messageFrames.delete(messageFrames.keys().next().value as string);
    messageFrames.set(key, frame);
  }
  return frame;
}

/**
 * Live updates for the page: a PocketBase realtime subscription made with the caller's own token (so
 * PocketBase's rules, and its members-only message topic, decide what they receive), forwarded as
 * server-sent events. Each stream starts with "sync", and the page then fetches whatever it may have
 * missed; if PocketBase goes away the stream closes and the page's EventSource reconnects.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token, userId } = await requireUser(request, context);
  const rawChannel = new URL(request.url).searchParams.get("channel");
  let channelId: string | null = null;
  if (rawChannel) {
    const parsed = channelIdSchema.safeParse(rawChannel);
    if (!parsed.success) fail(400, parsed.error.issues[0]?.message ?? "Invalid channel id.");
    channelId = parsed.data;
  }

  const topics = ["channel_members/*", "channels/*", MESSAGES_TOPIC, MEMBERSHIPS_TOPIC];
  const attachmentsTopic = channelId
    ? topicWithOptions("file_attachments/*", { filter: `channel = "${channelId}"`, fields: ATTACHMENT_FIELDS })
    : null;
  const previewsTopic = channelId
    ? topicWithOptions("link_previews/*", { filter: `channel = "${channelId}"`, fields: PREVIEW_FIELDS })
    : null;
  if (attachmentsTopic && previewsTopic) topics.push(attachmentsTopic, previewsTopic);

  return eventStream(
    request.signal,
    (send, abort) => {
      let closed = false;
      const sendFrame = (data: string) => {
        if (!closed) send({ data });
      };
      const emit = (event: LiveEvent) => sendFrame(JSON.stringify(event));
      const heartbeat = setInterval(() => !closed && send({ event: "ping", data: "" }), HEARTBEAT_MS);

      const closeUpstream = openRealtime({
        token,
        clientIp: context.clientIp,
        topics,
        // "sync" once every topic is subscribed: the page fetches what came before, events bring the rest.
        onReady: () => emit({ type: "sync" }),
        onClose: () => {
          if (!closed) abort();
        },
        onEvent: (topic, raw) => {
          const e = raw as { action?: string; record?: Record<string, unknown> };
          if (!e.record) return;
          if (topic === MESSAGES_TOPIC) {
            const record = e.record as Parameters<typeof toMessage>[0];
            if (e.action === "create") sendFrame(messageFrame(record));
            else if (e.action === "delete" && record.channel === channelId)
              emit({ type: "message-deleted", channelId, messageId: record.id });
          } else if (topic === MEMBERSHIPS_TOPIC) {
            if (e.record.user === userId) emit({ type: "memberships" });
          } else if (topic === "channel_members/*") {
            if (e.record.user === userId || e.action === "delete") emit({ type: "memberships" });
            else if (e.record.channel === channelId) emit({ type: "members" });
          } else if (topic === "channels/*") {
            emit({ type: "memberships" });
          } else if (topic === attachmentsTopic) {
            const record = e.record as AttachmentRecord;
            if (e.action === "create" && record.channel === channelId) emit({ type: "attachment", attachment: toAttachment(record) });
          } else if (topic === previewsTopic) {
            const record = e.record as PreviewRecord;
            if (e.action === "create" && record.channel === channelId) emit({ type: "preview", preview: toPreview(record) });
          }
        },
      });

      return () => {
        closed = true;
        clearInterval(heartbeat);
        closeUpstream();
      };
    },
    { headers: { "X-Accel-Buffering": "no" } },
  );
}
