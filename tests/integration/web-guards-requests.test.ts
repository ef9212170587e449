// The web server's guards against hostile requests, on the real stack (web-guards-stack.ts): bodies
// bounded while they stream, methods it does not serve, OPTIONS without loaders, and private pages
// never cacheable.

import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./pocketbase";
import { rawRequest, rssMb, Visitor } from "./web";
import { alice, channelId, expectMessage, useWebGuardsStack, web } from "./web-guards-stack";

useWebGuardsStack();

const webRssMb = () => rssMb(web.pid());

async function* chunks(total: number, size = 64 * 1024) {
  const chunk = Buffer.alloc(size, "a");
  let sent = 0;
  yield Buffer.from('{"encryptedContent":"');
  while (sent < total) {
    sent += size;
    yield chunk;
  }
  yield Buffer.from('"}');
}

describe("bounded bodies", () => {
  it("refuses a chunked JSON body past the limit while it streams, without growing the server", async () => {
    const before = webRssMb();
    const answer = await alice.send({
      method: "POST",
      path: `/api/channels/${channelId}/messages`,
      headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked", Cookie: alice.cookieHeader() },
      body: () => chunks(100 * 1024 * 1024),
      timeoutMs: 60_000,
    });
    // Either the 413 arrives, or the server cut the connection after answering it.
    if (answer.status !== 0) expectMessage(answer, 413, /too large/i);
    const after = webRssMb();
    expect(after - before, `RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB`).toBeLessThan(50);
    // and the server still answers
    expect((await alice.send({ path: "/api/channels" })).status).toBe(200);
  }, 90_000);

  it("refuses a declared Content-Length past the limit before reading it", async () => {
    const answer = await alice.send({
      method: "POST",
      path: `/api/channels/${channelId}/messages`,
      headers: { "Content-Type": "application/json", "Content-Length": String(300 * 1024) },
      body: Buffer.alloc(300 * 1024, "a"),
    });
    if (answer.status !== 0) expectMessage(answer, 413, /too large/i);
  });

  it("refuses a chunked multipart upload past the limit while it streams", async () => {
    const boundary = "xyz";
    async function* upload() {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      const chunk = Buffer.alloc(64 * 1024, 1);
      for (let i = 0; i < 200; i++) yield chunk;
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    const answer = await alice.send({
      method: "POST",
      path: `/api/channels/${channelId}/previews`,
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, "Transfer-Encoding": "chunked" },
      body: upload,
      timeoutMs: 30_000,
    });
    if (answer.status !== 0) expectMessage(answer, 413, /too large/i);
  });

  it("still takes a small chunked JSON body", async () => {
    const answer = await alice.send({
      method: "POST",
      path: `/api/channels/${channelId}/messages`,
      headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
      body: async function* () {
        yield Buffer.from('{"encryptedContent":');
        yield Buffer.from('"c2VjcmV0"}');
      },
    });
    expect(answer.status, answer.text).toBe(200);
  });
});

describe("methods", () => {
  it.each(["TRACE", "PROPFIND", "PUT", "DELETE", "PATCH", "MKCOL", "LOCK", "SEARCH"])(
    "%s answers 405 with a clear message on every kind of URL",
    async (method) => {
      for (const path of ["/", "/api/channels", "/api/events", `/api/channels/${channelId}/messages`, "/favicon.svg", "/nowhere"]) {
        const answer = await alice.send({ method, path });
        expectMessage(answer, 405, new RegExp(`${method} is not allowed`));
        expect(answer.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
      }
    },
  );

  it("OPTIONS answers the allowed methods and runs no loader", async () => {
    for (const path of ["/api/channels", "/api/events", "/", `/api/channels/${channelId}/messages`]) {
      const answer = await alice.send({ method: "OPTIONS", path, timeoutMs: 5_000 });
      expect(answer.status, path).toBe(204);
      expect(answer.text, path).toBe("");
      expect(answer.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
      expect(answer.headers["content-type"], path).toBeUndefined();
    }
  });

  it("a method Node cannot parse gets a readable 400", async () => {
    const net = await import("node:net");
    const { port } = new URL(web.url);
    const text = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), "127.0.0.1", () => socket.write("BREW / HTTP/1.1\r\nHost: x\r\n\r\n"));
      let out = "";
      socket.on("data", (d) => (out += d));
      socket.on("close", () => resolve(out));
    });
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    expect(text).toMatch(/malformed/);
  });

  it("a malformed Host header is a 400, not a 500", async () => {
    const answer = await rawRequest(web.url, { path: "/api/channels", headers: { Host: "exa mple:99999" } });
    expect(answer.status).toBe(400);
  });
});

describe("no caching of private answers", () => {
  it("every document and data answer carries Cache-Control: no-store and Vary: Cookie", async () => {
    // Every route file of the app, as an address (flat routes: dots are slashes, $id a parameter).
    // A member of its own channel only, so that posting `{}` everywhere changes nothing of alice's;
    // signing out comes last.
    const carol = new Visitor(web.url);
    await carol.signUp();
    const own = (await carol.createChannel("Headers")).id;
    const files = readdirSync(path.join(repoRoot, "app", "routes"))
      .filter((f) => /\.tsx?$/.test(f))
      .sort((a, b) => Number(a.includes("signout")) - Number(b.includes("signout")));
    expect(files.length).toBeGreaterThan(20);
    const routes = files.map((file) => {
      const segments = file
        .replace(/\.tsx?$/, "")
        .split(".")
        .filter((s) => s !== "_index");
      const address = `/${segments.map((s) => (s === "$id" ? (file.includes("channels") ? own : carol.userId) : s)).join("/")}`;
      return file.includes("profiles") ? `${address}?ids=${carol.userId}` : address;
    });
    routes.unshift("/_root.data", "/_index.data", "/?_data=root", "/nowhere", "/api/nowhere");
    for (const route of routes) {
      for (const visitor of [carol, new Visitor(web.url)]) {
        for (const method of ["GET", "POST"]) {
          if (route === "/api/events" && method === "GET" && visitor === carol) continue; // a stream: checked below
          const answer = await visitor.send({ method, path: route, json: method === "POST" ? {} : undefined });
          expect(answer.headers["cache-control"], `${method} ${route}`).toMatch(/\bno-store\b/);
          expect(String(answer.headers.vary), `${method} ${route}`).toMatch(/\bCookie\b/i);
        }
      }
    }
    // the signed-in page itself: it carries the user's email and wrapped keys
    const page = await alice.send({ path: "/", headers: { Accept: "text/html" } });
    expect(page.text).toContain("@example.test");
    expect(page.headers["cache-control"]).toMatch(/no-store/);
    // the live stream too (its headers come first; the stream itself never ends)
    const stream = new AbortController();
    const events = await fetch(`${web.url}/api/events`, {
      headers: { Cookie: alice.cookieHeader(), Accept: "text/event-stream" },
      signal: stream.signal,
    });
    expect(events.status).toBe(200);
    expect(events.headers.get("cache-control")).toMatch(/no-store/);
    expect(events.headers.get("vary")).toMatch(/Cookie/i);
    stream.abort();
  });

  it("static assets stay cacheable", async () => {
    const answer = await rawRequest(web.url, { path: "/favicon.svg" });
    expect(answer.status).toBe(200);
    expect(answer.headers["cache-control"]).toMatch(/max-age=3600/);
  });
});
