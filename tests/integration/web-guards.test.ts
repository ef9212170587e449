// The web server's guards against hostile requests, on the real stack (server.mjs on the built app,
// our PocketBase): bodies bounded while they stream, methods it does not serve, OPTIONS without
// loaders, private pages never cacheable, signed-out sessions revoked and CSRF tokens bound to
// their session.

import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { repoRoot, startPocketBase, type RunningPocketBase } from "./pocketbase";
import { rawRequest, rssMb, startWebFor, Visitor } from "./web";

let pb: RunningPocketBase;
let web: WebServer;
let alice: Visitor;
let channelId: string;

beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebFor(pb.url);
  alice = new Visitor(web.url);
  await alice.signUp();
  channelId = (await alice.createChannel()).id;
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

const webRssMb = () => rssMb(web.pid());

function expectMessage(answer: { status: number; json: unknown; text: string }, status: number, message: RegExp) {
  expect(answer.status, answer.text.slice(0, 200)).toBe(status);
  expect((answer.json as { message?: string })?.message, answer.text.slice(0, 200)).toMatch(message);
}

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

describe("sessions", () => {
  it("after sign-out, a replayed copy of the old session cookie gets 401", async () => {
    const bob = new Visitor(web.url);
    await bob.signUp();
    expect((await bob.send({ path: "/api/channels" })).status).toBe(200);
    const oldCookies = bob.cookieHeader();
    const oldCsrf = bob.csrfToken;

    const out = await bob.post("/api/auth/signout", {});
    expect(out.status).toBe(200);
    expect(bob.cookies.has("chatcrypt_session")).toBe(false);

    const replay = await rawRequest(web.url, { path: "/api/channels", headers: { Cookie: oldCookies } });
    expectMessage(replay, 401, /session has ended/i);
    const replayPost = await rawRequest(web.url, {
      method: "POST",
      path: "/api/channels",
      headers: { Cookie: oldCookies, "X-CSRF-Token": oldCsrf, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(replayPost.status).toBe(401);
    // the page itself no longer shows the account
    const page = await rawRequest(web.url, { path: "/", headers: { Cookie: oldCookies, Accept: "text/html" } });
    expect(page.text).not.toContain(bob.userId);
  });

  // A message send does not ask PocketBase about the session first (PocketBase refuses a revoked
  // token's create itself); the refusal still reads as the ended session, and nothing is stored.
  it("after sign-out, a replayed cookie cannot send a message, and is told the session ended", async () => {
    const carol = new Visitor(web.url);
    const account = await carol.signUp();
    const channel = await carol.createChannel();
    const path = `/api/channels/${channel.id}/messages`;
    const envelope = (text: string) => ({ encryptedContent: text, senderPublicKey: "", clientId: crypto.randomUUID() });
    expect((await carol.post(path, envelope("before sign-out"))).status).toBe(200);
    const oldCookies = carol.cookieHeader();
    const oldCsrf = carol.csrfToken;
    expect((await carol.post("/api/auth/signout", {})).status).toBe(200);

    const replay = await rawRequest(web.url, {
      method: "POST",
      path,
      headers: { Cookie: oldCookies, "X-CSRF-Token": oldCsrf, "Content-Type": "application/json" },
      body: JSON.stringify(envelope("after sign-out")),
    });
    expectMessage(replay, 401, /session has ended/i);

    const again = new Visitor(web.url);
    await again.visit();
    expect((await again.post("/api/auth/signin", { email: account.email, loginSecret: account.loginSecret })).status).toBe(200);
    const page = await again.send({ path: `${path}?limit=10` });
    expect((page.json as { messages: { encryptedContent: string }[] }).messages.map((m) => m.encryptedContent)).toEqual([
      "before sign-out",
    ]);
  });

  it("signing out one session leaves the user's other sessions signed in", async () => {
    const phone = new Visitor(web.url);
    const account = await phone.signUp();
    const laptop = new Visitor(web.url);
    await laptop.visit();
    expect((await laptop.post("/api/auth/signin", { email: account.email, loginSecret: account.loginSecret })).status).toBe(200);
    expect((await phone.post("/api/auth/signout", {})).status).toBe(200);
    expect((await laptop.send({ path: "/api/channels" })).status).toBe(200);
  });

  it("the CSRF pair of an anonymous visit is refused with a signed-in session", async () => {
    const carol = new Visitor(web.url);
    await carol.visit();
    const anonymousToken = carol.csrfToken;
    await carol.signUp();
    expect(carol.csrfToken).not.toBe(anonymousToken);
    const refused = await carol.send({ method: "POST", path: "/api/channels", json: {}, csrf: anonymousToken });
    expectMessage(refused, 403, /session has expired/);
    // the token handed out with the sign-up works
    const created = await carol.send({ method: "POST", path: "/api/channels", json: {} });
    expect(created.status).toBe(400);
  });

  it("a CSRF token of another user's session is refused", async () => {
    const dave = new Visitor(web.url);
    await dave.signUp();
    const answer = await alice.send({ method: "POST", path: "/api/channels", json: {}, csrf: dave.csrfToken });
    expect(answer.status).toBe(403);
  });
});

describe("idempotent sends", () => {
  it("a retried send with the same clientId is stored once and answers the stored message", async () => {
    const clientId = crypto.randomUUID();
    const first = await alice.post(`/api/channels/${channelId}/messages`, { encryptedContent: "Zmlyc3Q=", clientId });
    expect(first.status, first.text).toBe(200);
    const again = await alice.post(`/api/channels/${channelId}/messages`, { encryptedContent: "Zmlyc3Q=", clientId });
    expect(again.status, again.text).toBe(200);
    const a = first.json as { message: { id: string } };
    const b = again.json as { message: { id: string }; replayed?: boolean };
    expect(b.message.id).toBe(a.message.id);
    expect(b.replayed).toBe(true);
    const list = (await alice.send({ path: `/api/channels/${channelId}/messages?limit=500` })).json as { messages: { id: string }[] };
    expect(list.messages.filter((m) => m.id === a.message.id)).toHaveLength(1);
  });

  it("refuses a clientId that is not a UUID, and one reused in another channel", async () => {
    expectMessage(
      await alice.post(`/api/channels/${channelId}/messages`, { encryptedContent: "eA==", clientId: "../../x" }),
      400,
      /clientId/,
    );
    const clientId = crypto.randomUUID();
    expect((await alice.post(`/api/channels/${channelId}/messages`, { encryptedContent: "eA==", clientId })).status).toBe(200);
    const other = (await alice.createChannel("Other")).id;
    expectMessage(await alice.post(`/api/channels/${other}/messages`, { encryptedContent: "eA==", clientId }), 409, /another channel/);
  });

  it("a non-member is still told they are not a member", async () => {
    const eve = new Visitor(web.url);
    await eve.signUp();
    expectMessage(await eve.post(`/api/channels/${channelId}/messages`, { encryptedContent: "eA==" }), 403, /not a member/);
  });
});
