import type { LoaderFunctionArgs } from "@remix-run/node";
import { eventStream } from "remix-utils/sse/server";
import type { LiveEvent } from "~/chat-types";
import { channelIdSchema } from "~/validation/channels";
import { fail, requireUser } from "~/utils/http.server";
import { ATTACHMENT_FIELDS, PREVIEW_FIELDS, toAttachment, toPreview, type AttachmentRecord, type PreviewRecord } from "~/utils/attachments.server";
import { toMessage } from "~/utils/messages.server";
import { ensureEventSource } from "~/utils/realtime.server";

const HEARTBEAT_MS = 25_000;
const MESSAGES_TOPIC = "chatcrypt/messages";

/**
 * Live updates for the page: a PocketBase realtime subscription made with the caller's own token (so
 * PocketBase's rules decide what they receive), forwarded as server-sent events. Every (re)connection to
 * PocketBase sends "sync", and the page then fetches whatever it may have missed.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  ensureEventSource();
  const { pb, userId } = await requireUser(request, context);
  const rawChannel = new URL(request.url).searchParams.get("channel");
  let channelId: string | null = null;
  if (rawChannel) {
    const parsed = channelIdSchema.safeParse(rawChannel);
    if (!parsed.success) fail(400, parsed.error.issues[0]?.message ?? "Invalid channel id.");
    channelId = parsed.data;
  }

  return eventStream(request.signal, (send, abort) => {
    let closed = false;
    const emit = (event: LiveEvent) => {
      if (!closed) send({ data: JSON.stringify(event) });
    };
    const heartbeat = setInterval(() => !closed && send({ event: "ping", data: "" }), HEARTBEAT_MS);

    // "sync" only once every subscription is active: anything created before that is fetched by the
    // page, anything after arrives as an event. The SDK resubmits subscriptions before PB_CONNECT on
    // every reconnect, so later PB_CONNECTs are safe to forward directly.
    let subscribed = false;
    (async () => {
      await pb.realtime.subscribe("PB_CONNECT", () => subscribed && emit({ type: "sync" }));
      await pb.collection("channel_members").subscribe("*", (e: { action: string; record: { user: string } }) => {
        if (e.record.user === userId || e.action === "delete") emit({ type: "memberships" });
      });
      await pb.collection("channels").subscribe("*", () => emit({ type: "memberships" }));
      // New messages of every channel the user is in: the open channel shows them, the others may raise
      // a notification. Our PocketBase sends them on one topic, only to the channels' members
      // (pocketbase/broadcast.go). Deletions only matter for the open channel.
      await pb.realtime.subscribe(
        MESSAGES_TOPIC,
        (e: { action: string; record: Parameters<typeof toMessage>[0] }) => {
          if (e.action === "create") emit({ type: "message", message: toMessage(e.record) });
          else if (e.action === "delete" && e.record.channel === channelId) emit({ type: "message-deleted", channelId, messageId: e.record.id });
        },
      );
      if (channelId) {
        const inChannel = { filter: pb.filter("channel = {:channel}", { channel: channelId }) };
        await pb.collection("file_attachments").subscribe(
          "*",
          (e: { action: string; record: AttachmentRecord }) => {
            if (e.action === "create" && e.record.channel === channelId) emit({ type: "attachment", attachment: toAttachment(e.record) });
          },
          { ...inChannel, fields: ATTACHMENT_FIELDS },
        );
        await pb.collection("link_previews").subscribe(
          "*",
          (e: { action: string; record: PreviewRecord }) => {
            if (e.action === "create" && e.record.channel === channelId) emit({ type: "preview", preview: toPreview(e.record) });
          },
          { ...inChannel, fields: PREVIEW_FIELDS },
        );
      }
      subscribed = true;
      emit({ type: "sync" });
    })().catch(() => {
      if (!closed) abort();
    });

    return () => {
      closed = true;
      clearInterval(heartbeat);
      pb.realtime.unsubscribe().catch(() => undefined);
    };
  }, { headers: { "X-Accel-Buffering": "no" } });
}
