import http from "node:http";
import https from "node:https";

/**
 * The fetch the PocketBase SDK uses for this process's calls to PocketBase: node:http on one
 * keep-alive connection pool, which costs a fraction of the CPU of the global fetch (undici's
 * WHATWG request, stream and abort machinery) on every request. It answers what the SDK reads of a
 * response (status, url, json, text). Bodies other than text (multipart uploads) go through the
 * global fetch.
 */
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 256, scheduling: "lifo" }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 256, scheduling: "lifo" }),
};

const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

type Init = { method?: string; headers?: HeadersInit; body?: unknown; signal?: AbortSignal | null };

export interface PbResponse {
  status: number;
  ok: boolean;
  url: string;
  headers: Headers;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(new Headers(headers));
  return { ...(headers as Record<string, string>) };
}

export function pbFetch(input: string | URL, init: Init = {}): Promise<PbResponse | Response> {
  const body = init.body;
  // A streamed body (an upload passed through as it arrives) is sent as it comes: duplex "half".
  if (body instanceof ReadableStream) return fetch(input, { ...init, duplex: "half" } as RequestInit);
  if (body !== undefined && body !== null && typeof body !== "string") return fetch(input, init as RequestInit);
  const url = new URL(input);
  const transport = url.protocol === "https:" ? https : http;
  const headers = plainHeaders(init.headers);
  const payload = typeof body === "string" ? Buffer.from(body) : undefined;
  if (payload) headers["Content-Length"] = String(payload.length);
  return new Promise((resolve, reject) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return reject(signal.reason ?? new DOMException("Aborted", "AbortError"));
    const req = transport.request(
      url,
      { method: init.method ?? "GET", headers, agent: agents[url.protocol as "http:" | "https:"] },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) req.destroy(new Error("PocketBase response too large"));
          else chunks.push(chunk);
        });
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const status = res.statusCode ?? 0;
          resolve({
            status,
            ok: status >= 200 && status < 300,
            url: url.href,
            get headers() {
              return new Headers(
                Object.entries(res.headers).flatMap(([k, v]): [string, string][] =>
                  v === undefined ? [] : [[k, Array.isArray(v) ? v.join(", ") : v]],
                ),
              );
            },
            text: async () => text,
            json: async () => JSON.parse(text) as unknown,
          });
        });
      },
    );
    req.on("error", reject);
    signal?.addEventListener("abort", () => req.destroy(signal.reason instanceof Error ? signal.reason : new Error("Aborted")), {
      once: true,
    });
    req.end(payload);
  });
}
