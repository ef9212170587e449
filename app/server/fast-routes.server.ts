import type { IncomingMessage, ServerResponse } from "node:http";
import { handleLiveEvents } from "~/features/live/stream.server";
import { action as postMessage } from "~/routes/api.channels.$id.messages";
import { MAX_JSON_BYTES } from "./http.server";
import { sendResponse } from "./node-response.server";

/**
 * The two requests every open page makes most, answered by server.mjs after its guards but without
 * Remix's per-request work (route matching, data strategy, response streaming): the live stream
 * (GET /api/events) and sending a message (POST /api/channels/:id/messages, whose own route action
 * runs: the same checks and answers). Everything else goes on to Remix.
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
  sendMessage(req, res, decodeURIComponent(match[1])).catch(next);
}

async function sendMessage(req: NodeRequest, res: ServerResponse, channelId: string) {
  // The body is read here (cut just past the limit, which the action then answers with 413).
  const body = await readBody(req, MAX_JSON_BYTES + 1);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== "content-length") headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const request = new Request(new URL(req.url ?? "/", "http://localhost"), { method: "POST", headers, body: body as unknown as BodyInit });
  let response: Response;
  try {
    response = await postMessage({ request, params: { id: channelId }, context: { clientIp: req.ip ?? "" } });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  await sendResponse(res, response);
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
