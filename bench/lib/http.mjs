// Minimal HTTP over node:http for the bench clients: JSON requests on a shared keep-alive pool, and
// long-lived server-sent-event streams, each on its own connection (as a browser tab holds one).
import http from "node:http";

const apiAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

const REQUEST_TIMEOUT_MS = 60_000;

/** One request; resolves with { status, headers, text }. Never follows redirects. */
export function request(url, { method = "GET", headers = {}, body, timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
  const payload = body === undefined ? undefined : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
  const h = { ...headers };
  if (payload) {
    h["Content-Length"] = payload.length;
    if (!h["Content-Type"]) h["Content-Type"] = "application/json";
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: h, agent: apiAgent }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/**
 * Opens a server-sent-event stream. onEvent({ event, data }) is called for every complete event.
 * Resolves with the response headers once they arrived (rejects on a non-200 answer). close() ends it.
 */
export function openEventStream(url, headers, onEvent, onEnd = () => {}) {
  let req;
  let closed = false;
  const close = () => {
    closed = true;
    req?.destroy();
  };
  const opened = new Promise((resolve, reject) => {
    req = http.request(url, { method: "GET", headers: { Accept: "text/event-stream", ...headers }, agent: streamAgent }, (res) => {
      if (res.statusCode !== 200) {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => reject(new Error(`event stream answered ${res.statusCode}: ${text.slice(0, 200)}`)));
        return;
      }
      resolve(res.headers);
      res.setEncoding("utf8");
      let buffer = "";
      res.on("data", (chunk) => {
        buffer += chunk;
        let end;
        while ((end = nextBoundary(buffer)) !== null) {
          const [cut, skip] = end;
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + skip);
          const parsed = parseBlock(block);
          if (parsed) onEvent(parsed);
        }
      });
      res.on("error", () => undefined);
      res.on("close", () => {
        if (!closed) onEnd();
      });
    });
    req.on("error", (error) => {
      if (!closed) reject(error);
      if (!closed) onEnd(error);
    });
    req.end();
  });
  /** @type {{ opened: Promise<import("node:http").IncomingHttpHeaders>, close: () => void, headers: import("node:http").IncomingHttpHeaders }} */
  const stream = { opened, close, headers: {} };
  opened.then(
    (headers) => (stream.headers = headers),
    () => undefined,
  );
  return stream;
}

function nextBoundary(buffer) {
  const a = buffer.indexOf("\n\n");
  const b = buffer.indexOf("\r\n\r\n");
  if (a === -1 && b === -1) return null;
  if (b !== -1 && (a === -1 || b < a)) return [b, 4];
  return [a, 2];
}

function parseBlock(block) {
  let event = "message";
  const data = [];
  for (const rawLine of block.split(/\r?\n/)) {
    if (!rawLine || rawLine.startsWith(":")) continue;
    const colon = rawLine.indexOf(":");
    const field = colon === -1 ? rawLine : rawLine.slice(0, colon);
    let value = colon === -1 ? "" : rawLine.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  if (data.length === 0 && event === "message") return null;
  return { event, data: data.join("\n") };
}
