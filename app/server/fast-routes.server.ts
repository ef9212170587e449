import type { IncomingMessage, ServerResponse } from "node:http";
import { handleLiveEvents } from "~/features/live/stream.server";
import { sendMessage } from "~/features/messages/send.server";
import { MAX_JSON_BYTES, type RequestLike } from "./http.server";

/**
 * The two requests every open page makes most, answered before Express's other middleware and
 * Remix (server.mjs mounts this first): the live stream (GET /api/events) and sending a message
 * (POST /api/channels/:id/messages, app/features/messages/send.server.ts: the same checks and
 * answers as through the route). They skip Remix's per-request route matching and data strategy
 * and the Fetch API's Request, Headers and Response objects, which cost more CPU here than the rest
 * of the request. Everything else goes on to the next handler.
 */
const MESSAGES_PATH = /^\/api\/channels\/([^/?#]+)\/messages(?:\?|$)/;

type NodeRequest = IncomingMessage & { ip?: string };

export function handleFastRoutes(req: NodeRequest, res: ServerResponse, next: (error?: unknown) => void) {
  const url = req.url ?? "/";
  if (req.method === "GET" && (url === "/api/events" || url.startsWith("/api/events?"))) {
    handleLiveEvents(req, res).catch(next);
    return;
  }
  const match = req.method === "POST" ? MESSAGES_PATH.exec(url) : null;
  if (!match) return next();
  postMessage(req, res, decodeURIComponent(match[1])).catch(next);
}

async function postMessage(req: NodeRequest, res: ServerResponse, channelId: string) {
  const header = (name: string) => {
    const value = req.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  };
  // A declared oversize body is refused unread (readJson answers 413 from the header alone).
  const body = Number(header("content-length") ?? "0") > MAX_JSON_BYTES ? (req.resume(), "") : await readBody(req, MAX_JSON_BYTES + 1);
  const request: RequestLike = { method: req.method ?? "POST", headers: { get: header }, text: async () => body };
  let status = 200;
  let payload: string;
  let headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };
  try {
    payload = JSON.stringify(await sendMessage(request, { id: channelId }, { clientIp: req.ip ?? "" }));
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    status = thrown.status;
    headers = Object.fromEntries(thrown.headers);
    payload = await thrown.text();
  }
  headers["content-length"] = String(Buffer.byteLength(payload));
  res.writeHead(status, headers);
  res.end(payload);
}

/** The request body as text, cut at `limit` bytes (the route's own limit then answers 413). */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if (size >= limit) return;
      chunks.push(chunk);
      size += chunk.length;
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
