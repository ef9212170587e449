import http from "node:http";
import https from "node:https";
import { env } from "~/server/env.server";
import { forwardedFor } from "~/server/client-address.server";

/**
 * A small PocketBase realtime client for one page stream: one GET /api/realtime (server-sent events),
 * then one POST of the topics with the caller's own token, so PocketBase's rules (and our members-only
 * message topic) decide what arrives. Much lighter than a full SDK client per connection.
 *
 * When the upstream stream ends or fails, `onClose` runs once: the page's own EventSource then
 * reconnects and fetches what it missed, so there is no reconnect logic here.
 */
export interface RealtimeOptions {
  token: string;
  clientIp?: string;
  topics: string[];
  onEvent: (topic: string, data: unknown) => void;
  /** All topics are subscribed: anything created from now on will arrive. */
  onReady: () => void;
  onClose: () => void;
}

const CONNECT_TIMEOUT_MS = 10_000;
const MAX_EVENT_CHARS = 512 * 1024;

/** A topic with PocketBase's subscription options (filter, fields) encoded the way its API expects. */
export function topicWithOptions(topic: string, query: Record<string, string>) {
  return `${topic}?options=${encodeURIComponent(JSON.stringify({ query }))}`;
}

// One broadcast reaches every member's stream with the same payload: parse it once for all of them.
// The parsed values are shared between streams, so handlers must not modify them.
const PARSE_CACHE_ENTRIES = 256;
const parsedPayloads = new Map<string, unknown>();

function parseShared(payload: string): unknown {
  const cached = parsedPayloads.get(payload);
  if (cached !== undefined) return cached;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (parsedPayloads.size >= PARSE_CACHE_ENTRIES) parsedPayloads.delete(parsedPayloads.keys().next().value as string);
  parsedPayloads.set(payload, parsed);
  return parsed;
}

export function openRealtime(options: RealtimeOptions): () => void {
  const base = new URL(env().PB_URL);
  const transport = base.protocol === "https:" ? https : http;
  let closed = false;
  let buffer = "";
  let eventName = "";
  let data = "";
  let lastId = "";

  const close = () => {
    if (closed) return;
    closed = true;
    request.destroy();
    options.onClose();
  };

  const subscribe = async (clientId: string) => {
    const body = JSON.stringify({ clientId, subscriptions: options.topics });
    const response = await fetch(new URL("/api/realtime", base), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Authorization: options.token,
        ...forwardedFor(options.clientIp),
      },
      body,
      signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`realtime subscription refused (${response.status})`);
  };

  const dispatch = () => {
    const name = eventName || "message";
    const payload = data;
    eventName = "";
    data = "";
    if (name === "PB_CONNECT") {
      subscribe(lastId).then(
        () => !closed && options.onReady(),
        () => close(),
      );
      return;
    }
    const parsed = parseShared(payload);
    if (parsed !== undefined) options.onEvent(name, parsed);
  };

  const feed = (chunk: string) => {
    buffer += chunk;
    if (buffer.length > MAX_EVENT_CHARS) return close();
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, buffer[newline - 1] === "\r" ? newline - 1 : newline);
      buffer = buffer.slice(newline + 1);
      if (line === "") {
        if (data || eventName) dispatch();
      } else if (line.startsWith("data:")) {
        data += (data ? "\n" : "") + line.slice(line[5] === " " ? 6 : 5);
      } else if (line.startsWith("event:")) {
        eventName = line.slice(line[6] === " " ? 7 : 6);
      } else if (line.startsWith("id:")) {
        lastId = line.slice(line[3] === " " ? 4 : 3);
      }
    }
  };

  const request = transport.get(
    new URL("/api/realtime", base),
    { headers: { Accept: "text/event-stream", ...forwardedFor(options.clientIp) }, timeout: CONNECT_TIMEOUT_MS },
    (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return close();
      }
      request.setTimeout(0);
      response.setEncoding("utf8");
      response.on("data", feed);
      response.on("end", close);
      response.on("error", close);
    },
  );
  request.on("timeout", close);
  request.on("error", close);
  return close;
}
