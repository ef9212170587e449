// Test toolkit for the production web server (server.mjs on the built app) in front of a real
// PocketBase: a small cookie-keeping HTTP client that behaves like the page (CSRF token from the
// document, session cookie), and helpers to sign up and create channels through the web API.

import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import { promisify } from "node:util";
import { startWeb, type WebServer } from "../e2e/stack";
import { fakePublicKey, randomSecret, randomUserId, randomVerifier, readAnswer, repoRoot } from "./pocketbase";

const execFileAsync = promisify(execFile);

let built: Promise<void> | undefined;

/** Builds PocketBase and the web app when missing or out of date (the script skips fresh builds). */
export function ensureWebBuilt(): Promise<void> {
  built ??= execFileAsync("bash", ["scripts/ensure-deps.sh"], { cwd: repoRoot, maxBuffer: 20 * 1024 * 1024 }).then(() => undefined);
  return built;
}

export async function startWebFor(pbUrl: string, env?: Record<string, string>): Promise<WebServer> {
  await ensureWebBuilt();
  return startWeb(pbUrl, { env });
}

/** Resident memory of a process, in MB (Linux). */
export function rssMb(pid: number | undefined): number {
  if (!pid) throw new Error("the process is not running");
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | number | string[]>;
  /** A body sent at once, or a generator of chunks sent with Transfer-Encoding: chunked. */
  body?: string | Buffer | (() => AsyncIterable<Buffer>);
  timeoutMs?: number;
  /** The loopback address the connection comes from (127.x.y.z), to pose as many clients. */
  localAddress?: string;
  /** `path` is sent as the request's target as it is ("//api/x", "http://host/x"), not resolved against the base. */
  asIs?: boolean;
}

/** One HTTP request on its own connection; a connection the server cuts short is status 0. */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...(request.headers ?? {}) };
    const streamed = typeof request.body === "function";
    if (!streamed && request.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-length")) {
      headers["Content-Length"] = Buffer.byteLength(request.body as string | Buffer);
    }
    const base = new URL(baseUrl);
    const resolved = new URL(request.path, baseUrl);
    const path = request.asIs ? request.path : resolved.pathname + resolved.search;
    const req = http.request(
      {
        hostname: base.hostname,
        port: base.port,
        path,
        method: request.method ?? "GET",
        headers,
        agent: false,
        localAddress: request.localAddress,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", () => resolve({ status: 0, headers: res.headers, text: "", json: undefined }));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, ...readAnswer(chunks) });
          req.destroy();
        });
      },
    );
    req.setTimeout(request.timeoutMs ?? 15_000, () => req.destroy(new Error(`timed out: ${request.method ?? "GET"} ${request.path}`)));
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET" || error.code === "EPIPE") resolve({ status: 0, headers: {}, text: "", json: undefined });
      else reject(error);
    });
    if (streamed) {
      (async () => {
        for await (const chunk of (request.body as () => AsyncIterable<Buffer>)()) {
          if (req.destroyed) return;
          if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
        }
        req.end();
      })().catch(() => req.destroy());
    } else {
      req.end(request.body);
    }
  });
}

/** A visitor of the web app: keeps its cookies and the CSRF token, like the page does. */
export class Visitor {
  cookies = new Map<string, string>();
  csrfToken = "";
  userId = "";

  /** `localAddress`: every request of this visitor comes from that loopback address. */
  constructor(
    readonly baseUrl: string,
    readonly localAddress?: string,
  ) {}

  cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private remember(headers: http.IncomingHttpHeaders) {
    for (const line of headers["set-cookie"] ?? []) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const fresh = headers["x-csrf-token"];
    if (typeof fresh === "string" && fresh) this.csrfToken = fresh;
  }

  async send(request: RawRequest & { json?: unknown; csrf?: string | null }): Promise<Answer> {
    const headers: Record<string, string | number | string[]> = { ...(request.headers ?? {}) };
    if (this.cookies.size && !("Cookie" in headers)) headers.Cookie = this.cookieHeader();
    if (request.csrf !== null && !("X-CSRF-Token" in headers)) headers["X-CSRF-Token"] = request.csrf ?? this.csrfToken;
    let body = request.body;
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers["Content-Type"] = "application/json";
    }
    const answer = await rawRequest(this.baseUrl, {
      localAddress: this.localAddress,
      ...request,
      method: request.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
    });
    this.remember(answer.headers);
    return answer;
  }

  /** Loads the page: the CSRF cookie and token, as a browser gets them. */
  async visit(): Promise<Answer> {
    const answer = await this.send({ path: "/", headers: { Accept: "text/html" }, csrf: null });
    const token = /<meta name="csrf-token" content="([^"]*)"/.exec(answer.text)?.[1];
    if (token) this.csrfToken = token.replace(/&amp;/g, "&");
    return answer;
  }

  post(path: string, json: unknown) {
    return this.send({ method: "POST", path, json });
  }

  /** Signs a new account up through /api/auth/signup (keys are random stand-ins: the server never reads them). */
  async signUp(): Promise<{ id: string; email: string; loginSecret: string }> {
    if (!this.csrfToken) await this.visit();
    const id = randomUserId();
    const account = { id, email: `web-${id}@example.test`, loginSecret: randomSecret() };
    const answer = await this.post("/api/auth/signup", {
      ...account,
      username: `web_${id.slice(0, 10)}`,
      ecdhPublicKey: fakePublicKey(),
      rsaPublicKey: fakePublicKey(),
      encryptedEcdhPrivateKey: "w".repeat(200),
      encryptedRsaPrivateKey: "w".repeat(200),
      kdfIterations: 600_000,
    });
    if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.status} ${answer.text}`);
    this.userId = id;
    return account;
  }

  async createChannel(name = "Web channel"): Promise<{ id: string; verifier: string }> {
    const channel = { id: randomUUID(), verifier: randomVerifier() };
    const answer = await this.post("/api/channels", { ...channel, name, ecdhPublicKey: fakePublicKey(), kdfIterations: 600_000 });
    if (answer.status !== 200) throw new Error(`channel creation failed: ${answer.status} ${answer.text}`);
    return channel;
  }
}
