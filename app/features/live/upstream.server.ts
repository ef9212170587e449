import http from "node:http";
import https from "node:https";

/**
 * What PocketBase's relay sends with each event: its recipients' ids (`to`) and the record. A
 * channel's events also name their recipient list (`list`): with `to`, they define it; without,
 * they are for the list as last defined under that name on this connection.
 */
export type RelayData = { to?: unknown; list?: unknown; record?: Record<string, unknown> | null };

const CONNECT_TIMEOUT_MS = 10_000;
// PocketBase sends a comment every 20 s: a connection silent for longer than this is dead.
const IDLE_TIMEOUT_MS = 60_000;
const MAX_EVENT_CHARS = 4 * 1024 * 1024;

/** One event of a server-sent-event stream: its name and its data lines joined. */
function sseParser(onEvent: (name: string, data: string) => void, maxChars = MAX_EVENT_CHARS) {
  let buffer = "";
  let name = "";
  let data = "";
  let hasData = false;
  return (chunk: string): boolean => {
    buffer += chunk;
    if (buffer.length > maxChars) return false;
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, buffer[newline - 1] === "\r" ? newline - 1 : newline);
      buffer = buffer.slice(newline + 1);
      if (line === "") {
        if (hasData) onEvent(name || "message", data);
        name = "";
        data = "";
        hasData = false;
      } else if (line.startsWith("data:")) {
        data += (hasData ? "\n" : "") + line.slice(line[5] === " " ? 6 : 5);
        hasData = true;
      } else if (line.startsWith("event:")) {
        name = line.slice(line[6] === " " ? 7 : 6);
      }
    }
    return true;
  };
}

/**
 * The connection to PocketBase's relay (GET /api/chatcrypt/relay): `ready` resolves with the relay's
 * id; each event goes to onEvent, and onBatchEnd runs after the events of one read. onClose runs
 * once when the connection ends or fails.
 */
export class Upstream {
  readonly ready: Promise<string>;
  private request: http.ClientRequest | undefined;
  private closed = false;

  constructor(
    base: URL,
    private readonly onEvent: (kind: string, data: RelayData) => void,
    private readonly onBatchEnd: () => void,
    private readonly onClose: () => void,
  ) {
    let resolve!: (id: string) => void;
    let reject!: (error: Error) => void;
    this.ready = new Promise<string>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.ready.catch(() => undefined);
    const fail = () => {
      reject(new Error("relay unavailable"));
      this.close();
    };
    const feed = sseParser((name, data) => {
      let parsed: RelayData & { relay?: unknown };
      try {
        parsed = JSON.parse(data) as RelayData & { relay?: unknown };
      } catch {
        return;
      }
      if (name === "ready" && typeof parsed.relay === "string") resolve(parsed.relay);
      else this.onEvent(name, parsed);
    });
    const transport = base.protocol === "https:" ? https : http;
    const request = transport.get(
      new URL("/api/chatcrypt/relay", base),
      { headers: { Accept: "text/event-stream" }, timeout: CONNECT_TIMEOUT_MS, agent: false },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return fail();
        }
        request.setTimeout(IDLE_TIMEOUT_MS);
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          if (!feed(chunk)) fail();
          else this.onBatchEnd();
        });
        response.on("end", fail);
        response.on("error", fail);
      },
    );
    request.on("timeout", fail);
    request.on("error", fail);
    this.request = request;
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.request?.destroy();
    this.onClose();
  }
}
