import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { startPocketBase, type RunningPocketBase } from "./pocketbase";
import { startWebFor, Visitor } from "./web";

// Request bodies on the web server (ADR 66): a body that stops arriving is cut after ten seconds
// (408), an oversized chunked body to a JSON route gets its 413 (not a reset), and without a session
// a chunked body is refused before it is read.
let pb: RunningPocketBase;
let web: WebServer;
let alice: Visitor;
let channelId: string;

const MiB = 1024 * 1024;

beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebFor(pb.url);
  alice = new Visitor(web.url);
  await alice.signUp();
  channelId = (await alice.createChannel("Bodies")).id;
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

/** A chunked body of `total` bytes in 1 MiB pieces; `sent()` tells how many the server let through. */
function chunkedBody(total: number) {
  let sent = 0;
  const piece = Buffer.alloc(MiB, 0x61);
  return {
    sent: () => sent,
    body: async function* () {
      yield Buffer.from('{"encryptedContent":"');
      while (sent < total) {
        sent += MiB;
        yield piece;
      }
      yield Buffer.from('"}');
    },
  };
}

describe("request bodies", () => {
  it("a body that stops arriving is answered 408 after ten seconds", async () => {
    const started = Date.now();
    const answer = await alice.send({
      method: "POST",
      path: `/api/channels/${channelId}/messages`,
      headers: { "Content-Type": "application/json", "Content-Length": 1000 },
      timeoutMs: 60_000,
      body: async function* () {
        yield Buffer.from('{"encryptedContent":"');
        await new Promise(() => {}); // and nothing more
      },
    });
    const seconds = (Date.now() - started) / 1000;
    expect(answer.status).toBe(408);
    expect((answer.json as { message: string }).message).toBe("The request's body stopped arriving. Please try again.");
    expect(seconds).toBeGreaterThanOrEqual(10);
    expect(seconds).toBeLessThan(20);
  }, 60_000);

  it("8 MiB chunked bodies to JSON routes are answered 413, not reset", async () => {
    for (const path of [`/api/channels/${channelId}/messages`, "/api/account/email", `/api/channels/${channelId}/password`]) {
      const { body } = chunkedBody(8 * MiB);
      const answer = await alice.send({ method: "POST", path, headers: { "Content-Type": "application/json" }, body });
      expect(answer.status, path).toBe(413);
      expect((answer.json as { message: string }).message, path).toBe("Request is too large.");
    }
  }, 60_000);

  it("signed out, a 1,500 MiB chunked body is refused before it is read", async () => {
    const stranger = new Visitor(web.url);
    await stranger.visit();
    const { body, sent } = chunkedBody(1500 * MiB);
    const answer = await stranger.send({
      method: "POST",
      path: `/api/channels/${channelId}/messages`,
      headers: { "Content-Type": "application/json", "X-Request-Id": randomUUID() },
      body,
    });
    expect([401, 403]).toContain(answer.status);
    expect(sent()).toBeLessThan(16 * MiB);
  }, 60_000);
});
