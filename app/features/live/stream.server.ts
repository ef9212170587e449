import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppLoadContext } from "@remix-run/node";
import { channelIdSchema } from "~/features/channels/validation";
import { relayHub, type LiveSink } from "~/features/live/relay.server";
import { SYNC_FRAME } from "~/features/live/frames.server";
import { sendResponse } from "~/server/node-response.server";
import { fail } from "~/server/responses.server";
import { requireLiveSession } from "~/server/session-check.server";
import { sessionFromHeader } from "~/server/session.server";

/** Buffered output beyond which a stream's reader is considered gone (its browser reconnects). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export const LIVE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-store, no-transform",
  "X-Accel-Buffering": "no",
} as const;

export interface LiveRequest {
  userId: string;
  token: string;
  channelId: string | null;
}

/** The hash PocketBase's relay names a session's token by when it is revoked (pocketbase/sessions.go). */
export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Checks a live stream request: a signed-in session PocketBase still accepts (not signed out) and,
 * optionally, a valid channel id. Throws the JSON error response otherwise.
 */
export async function checkLiveRequest(
  cookieHeader: string | null | undefined,
  url: string,
  context: AppLoadContext,
): Promise<LiveRequest> {
  const session = await sessionFromHeader(cookieHeader);
  const token = session.get("token");
  const userId = session.get("userId");
  if (!token || !userId) fail(401, "Not authenticated");
  await requireLiveSession(token, context);
  const raw = new URL(url, "http://localhost").searchParams.get("channel");
  if (!raw) return { userId, token, channelId: null };
  const parsed = channelIdSchema.safeParse(raw);
  if (!parsed.success) fail(400, parsed.error.issues[0]?.message ?? "Invalid channel id.");
  return { userId, token, channelId: parsed.data };
}

/**
 * Attaches a page stream to this process's relay hub: "sync" once the user's events flow, then
 * every event for them, until the page goes, PocketBase's relay ends, or the session is signed out.
 * Returns the function that detaches it.
 */
export function runLiveStream(opened: LiveRequest, out: { write(frame: Uint8Array): void; close(): void }) {
  const hub = relayHub();
  let closed = false;
  const sink: LiveSink = {
    userId: opened.userId,
    channelId: opened.channelId,
    tokenHash: tokenHash(opened.token),
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
export async function handleLiveEvents(req: IncomingMessage & { ip?: string }, res: ServerResponse) {
  let opened: LiveRequest;
  try {
    opened = await checkLiveRequest(req.headers.cookie, req.url ?? "/", { clientIp: req.ip ?? "" });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return sendResponse(res, thrown);
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
