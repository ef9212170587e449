import type { IncomingMessage, ServerResponse } from "node:http";
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleLiveEvents } from "~/features/live/stream.server";
import { action as postMessage } from "~/routes/api.channels.$id.messages";
import { MAX_JSON_BYTES } from "./http.server";

/**
 * The two requests every open page makes most, answered before Express's other middleware and
 * Remix (server.mjs mounts this first): the live stream (GET /api/events) and sending a message
 * (POST /api/channels/:id/messages). The message route's own action runs, with the same checks and
 * answers as through Remix; only Remix's per-request route matching, data strategy and response
 * streaming are skipped. Everything else goes on to the next handler.
 */
const MESSAGES_PATH = /^\/api\/channels\/([^/?#]+)\/messages(?:\?|$)/;

type NodeRequest = IncomingMessage & { ip?: string; originalUrl?: string };

export function handleFastRoutes(req: NodeRequest, res: ServerResponse, next: (error?: unknown) => void) {
  const url = req.url ?? "/";
  if (req.method === "GET" && (url === "/api/events" || url.startsWith("/api/events?"))) {
    handleLiveEvents(req, res).catch(next);
    return;
  }
  const match = req.method === "POST" ? MESSAGES_PATH.exec(url) : null;
  if (!match) return next();
  runAction(req, res, postMessage, { id: decodeURIComponent(match[1]) }).catch(next);
}

async function runAction(
  req: NodeRequest,
  res: ServerResponse,
  action: (args: ActionFunctionArgs) => Promise<Response>,
  params: Record<string, string>,
) {
  const declared = Number(req.headers["content-length"] ?? "0");
  let response: Response;
  if (declared > MAX_JSON_BYTES) {
    response = Response.json({ message: "Request is too large." }, { status: 413 });
    req.resume();
  } else {
    const body = await readBody(req, MAX_JSON_BYTES + 1);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const request = new Request(new URL(req.url ?? "/", "http://localhost"), {
      method: req.method,
      headers,
      body: body as unknown as BodyInit,
    });
    try {
      response = await action({ request, params, context: { clientIp: req.ip ?? "" } });
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      response = thrown;
    }
  }
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) out["set-cookie"] = cookies;
  const payload = Buffer.from(await response.arrayBuffer());
  out["content-length"] = String(payload.length);
  res.writeHead(response.status, out);
  res.end(payload);
}

/** The request body, cut at `limit` bytes (the action's own limit then answers 413). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
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
