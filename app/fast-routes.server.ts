import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { handleLiveEvents } from "~/features/live/stream.server";
import { messagePage } from "~/features/messages/page.server";
import { postMessage } from "~/features/messages/post.server";
import { MAX_JSON_BYTES, requireCsrf, requireSessionCookie } from "~/server/http.server";
import { sendResponse } from "~/server/node-response.server";

/**
 * The requests every open page makes most, answered by server.mjs after its guards but without
 * Remix's per-request work (route matching, data strategy, response streaming): the live stream
 * (GET /api/events), sending a message (POST /api/channels/:id/messages) and a page of history (GET
 * on the same address). The route's own code runs: the same checks and answers, on Node's request as
 * it is, without building a Fetch API Request or Response. Everything else goes on to Remix.
 *
 * Like routes.ts and routes/, this file sits above the features and server/ (ADR 11: server/ imports no
 * feature): it is the routing layer, answering two features' routes before Remix does.
 */
const MESSAGES_PATH = /^\/api\/channels\/([^/?#]+)\/messages(?:\?|$)/;

type NodeRequest = IncomingMessage & { ip?: string };

/** True for the requests handleFastRoutes answers (server.mjs sends them past compression and static files). */
export function isFastRoute(req: IncomingMessage): boolean {
  const url = req.url ?? "/";
  if (req.method === "GET" && (url === "/api/events" || url.startsWith("/api/events?"))) return true;
  return (req.method === "POST" || req.method === "GET") && MESSAGES_PATH.test(url);
}

export function handleFastRoutes(req: NodeRequest, res: ServerResponse, next: (error?: unknown) => void) {
  const url = req.url ?? "/";
  if (req.method === "GET" && (url === "/api/events" || url.startsWith("/api/events?"))) {
    handleLiveEvents(req, res).catch(next);
    return;
  }
  const match = MESSAGES_PATH.exec(url);
  if (!match) return next();
  const params = { id: decodeURIComponent(match[1]) };
  const answer = req.method === "GET" ? readPage(req, params) : sendMessage(req, params);
  answer
    // (a page of history is large; a send's answer is one message, sent as it is)
    .then((body) => sendJson(req, res, body, req.method === "GET"))
    .catch((thrown) => (thrown instanceof Response ? sendResponse(res, thrown) : Promise.reject(thrown)))
    .catch(next);
}

function readPage(req: NodeRequest, params: { id: string }) {
  const request = { headers: { get: (name: string) => headerOf(req, name) }, url: `http://localhost${req.url ?? "/"}` };
  return messagePage(request, params, { clientIp: req.ip ?? "" });
}

async function sendMessage(req: NodeRequest, params: { id: string }) {
  const headers = { get: (name: string) => headerOf(req, name) };
  // Without a session (or its CSRF token) the body is not read at all (ADR 66).
  await requireCsrf({ headers });
  await requireSessionCookie({ headers });
  // The body is read here (cut just past the limit, which the checks then answer with 413).
  const preRead = await readBody(req, MAX_JSON_BYTES + 1);
  const request = { method: "POST", headers, body: null, preRead };
  return postMessage(request, params, { clientIp: req.ip ?? "" });
}

/** Answers over this size are compressed when the client takes gzip (as the compression middleware would). */
const COMPRESS_FROM = 1024;
const gzipped = promisify(gzip);

/** A JSON answer, compressed (when asked to be) in one piece off the main thread if it is large. */
async function sendJson(req: IncomingMessage, res: ServerResponse, answer: unknown, compress: boolean) {
  let body = Buffer.from(JSON.stringify(answer));
  const headers: Record<string, string | number> = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };
  if (compress && body.length >= COMPRESS_FROM) {
    headers.vary = "Accept-Encoding";
    if (takesGzip(headerOf(req, "accept-encoding"))) {
      body = await gzipped(body);
      headers["content-encoding"] = "gzip";
    }
  }
  headers["content-length"] = body.length;
  res.writeHead(200, headers);
  res.end(body);
}

/** Whether an Accept-Encoding header takes gzip (by name or `*`, without `q=0`). */
function takesGzip(accept: string | null) {
  return (accept ?? "").split(",").some((part) => {
    const [name, ...options] = part.trim().toLowerCase().split(";");
    const q = options.map((o) => o.trim()).find((o) => o.startsWith("q="));
    return (name === "gzip" || name === "*") && !(q && Number(q.slice(2)) === 0);
  });
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * The request body, cut at `limit` bytes: a declared Content-Length over it is not read at all, and
 * reading stops at the limit (the web server throws the rest away after the 413: server/body-guard.mjs).
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (Number(req.headers["content-length"] ?? "0") > limit) return Promise.resolve(Buffer.alloc(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) {
        req.pause();
        resolve(Buffer.concat(chunks));
      }
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
