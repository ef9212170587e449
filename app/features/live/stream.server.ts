import type { IncomingMessage, ServerResponse } from "node:http";
import { channelIdSchema } from "~/features/channels/validation";
import { relayHub, SYNC_FRAME, type LiveSink } from "~/features/live/relay.server";
import { sessionStorage } from "~/server/session.server";

/** Buffered output beyond which a stream's reader is considered gone (its browser reconnects). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export const LIVE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-store, no-transform",
  "X-Accel-Buffering": "no",
} as const;

type Opened = { ok: true; userId: string; token: string; channelId: string | null } | { ok: false; status: number; message: string };

/** Checks a live stream request: a signed-in session and, optionally, a valid channel id. */
export async function checkLiveRequest(cookieHeader: string | null | undefined, url: string): Promise<Opened> {
  const session = await sessionStorage.getSession(cookieHeader);
  const token = session.get("token");
  const userId = session.get("userId");
  if (!token || !userId) return { ok: false, status: 401, message: "Not authenticated" };
  const raw = new URL(url, "http://localhost").searchParams.get("channel");
  if (!raw) return { ok: true, userId, token, channelId: null };
  const parsed = channelIdSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? "Invalid channel id." };
  return { ok: true, userId, token, channelId: parsed.data };
}

/**
 * Attaches a page stream to this process's relay hub: "sync" once the user's events flow, then
 * every event for them. Returns the function that detaches it.
 */
export function runLiveStream(
  opened: { userId: string; token: string; channelId: string | null },
  out: { write(frame: Uint8Array): void; close(): void },
) {
  const hub = relayHub();
  let closed = false;
  const sink: LiveSink = {
    userId: opened.userId,
    channelId: opened.channelId,
    write: (frame) => {
      if (!closed) out.write(frame);
    },
    close: () => {
      if (closed) return;
      closed = true;
      hub.detach(sink);
      out.close();
    },
  };
  hub.attach(sink, opened.token).then(
    (ok) => (ok ? sink.write(SYNC_FRAME) : sink.close()),
    () => sink.close(),
  );
  return () => sink.close();
}

/**
 * GET /api/events for the Node server (server.mjs), outside Remix. After the headers, each event's
 * bytes (framed once for all its streams) are written straight to the socket: no chunked encoding
 * (the response ends when the connection closes, as a live stream does), no per-stream parsing,
 * web streams or compression.
 */
export async function handleLiveEvents(req: IncomingMessage, res: ServerResponse) {
  let opened: Opened;
  try {
    opened = await checkLiveRequest(req.headers.cookie, req.url ?? "/");
  } catch {
    opened = { ok: false, status: 400, message: "Invalid session." };
  }
  if (!opened.ok) {
    res.writeHead(opened.status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
    res.end(JSON.stringify({ message: opened.message }));
    return;
  }
  const socket = req.socket;
  res.useChunkedEncodingByDefault = false;
  res.writeHead(200, LIVE_HEADERS);
  if (req.method === "HEAD" || socket.destroyed) {
    res.end();
    return;
  }
  res.flushHeaders();
  socket.setNoDelay(true);
  const close = runLiveStream(opened, {
    write: (frame) => {
      if (socket.writableLength > MAX_BUFFERED_BYTES) socket.destroy();
      else socket.write(frame);
    },
    close: () => res.end(),
  });
  res.on("close", close);
}
