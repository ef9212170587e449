import type { IncomingMessage, ServerResponse } from "node:http";
import { handleLiveEvents } from "~/features/live/stream.server";
import { postMessage } from "~/features/messages/post.server";
import { MAX_JSON_BYTES } from "./http.server";
import { sendResponse } from "./node-response.server";

/**
 * The two requests every open page makes most, answered by server.mjs after its guards but without
 * Remix's per-request work (route matching, data strategy, response streaming): the live stream
 * (GET /api/events) and sending a message (POST /api/channels/:id/messages, whose own route code
 * runs: the same checks and answers, on Node's request as it is, without building a Fetch API
 * Request or Response). Everything else goes on to Remix.
 */
const MESSAGES_PATH = /^\/api\/channels\/([^/?#]+)\/messages(?:\?|$)/;

type NodeRequest = IncomingMessage & { ip?: string };

/** True for the requests handleFastRoutes answers (server.mjs sends them past compression and static files). */
export function isFastRoute(req: IncomingMessage): boolean {
  const url = req.url ?? "/";
  if (req.method === "GET") return url === "/api/events" || url.startsWith("/api/events?");
  return req.method === "POST" && MESSAGES_PATH.test(url);
}

export function handleFastRoutes(req: NodeRequest, res: ServerResponse, next: (error?: unknown) => void) {
  const url = req.url ?? "/";
  if (req.method === "GET" && (url === "/api/events" || url.startsWith("/api/events?"))) {
    handleLiveEvents(req, res).catch(next);
    return;
  }
  const match = req.method === "POST" ? MESSAGES_PATH.exec(url) : null;
  if (!match) return next();
  sendMessage(req, res, decodeURIComponent(match[1])).catch(next);
}

async function sendMessage(req: NodeRequest, res: ServerResponse, channelId: string) {
  // The body is read here (cut just past the limit, which the checks then answer with 413).
  const preRead = await readBody(req, MAX_JSON_BYTES + 1);
  const request = {
    method: "POST",
    headers: { get: (name: string) => headerOf(req, name) },
    body: null,
    preRead,
  };
  let answer: unknown;
  try {
    answer = await postMessage(request, { id: channelId }, { clientIp: req.ip ?? "" });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return sendResponse(res, thrown);
  }
  const json = Buffer.from(JSON.stringify(answer));
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "content-length": json.length });
  res.end(json);
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The request body, cut at `limit` bytes (a declared Content-Length over it is not read at all). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (Number(req.headers["content-length"] ?? "0") > limit) {
    req.resume();
    return Promise.resolve(Buffer.alloc(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if (size >= limit) return;
      chunks.push(chunk);
      size += chunk.length;
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
