import { randomBytes } from "node:crypto";
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebChannel, signedInPage, startLiveStack, type WebServer } from "./live-pages";

// GET /api/channels/:id/messages is answered before Remix (app/fast-routes.server.ts) by the
// route's own loader code (app/features/messages/page.server.ts).
let web: WebServer;
let stack: Awaited<ReturnType<typeof startLiveStack>> | undefined;

beforeAll(async () => {
  stack = await startLiveStack();
  web = stack.web;
});

afterAll(() => stack?.stop());

// A page of history is answered before Remix too: in one piece, compressed once when the client takes gzip.
describe("a page of history", () => {
  const get = (path: string, headers: Record<string, string>, method = "GET") =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = http.request(`${web.url}${path}`, { method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });

  it("comes gzip-compressed with its length when the client takes gzip, as it is otherwise; errors stay clear JSON", async () => {
    const alice = await signedInPage(web.url);
    const channel = await createWebChannel(alice);
    const path = `/api/channels/${channel.id}/messages`;
    const texts = Array.from({ length: 12 }, () => randomBytes(64).toString("base64"));
    for (const text of texts) await alice.api(path, { encryptedContent: text, senderPublicKey: "" });
    const cookie = { Cookie: alice.cookieHeader() };
    const textsOf = (body: Buffer) => JSON.parse(body.toString()).messages.map((m: { encryptedContent: string }) => m.encryptedContent);

    const zipped = await get(`${path}?limit=50`, { ...cookie, "Accept-Encoding": "br, gzip;q=0.8" });
    expect(zipped.status).toBe(200);
    expect(zipped.headers).toMatchObject({ "content-encoding": "gzip", vary: "Accept-Encoding", "cache-control": "no-store" });
    expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);
    expect(textsOf(gunzipSync(zipped.body))).toEqual(texts);
    for (const accept of [undefined, "gzip;q=0", "identity"]) {
      const plain = await get(`${path}?limit=50`, accept ? { ...cookie, "Accept-Encoding": accept } : cookie);
      expect(plain.headers["content-encoding"], accept).toBeUndefined();
      expect(textsOf(plain.body), accept).toEqual(texts);
    }
    const head = await get(`${path}?limit=50`, cookie, "HEAD");
    expect(head.status).toBe(200);
    for (const [query, headers, status] of [
      ["limit=50", {}, 401],
      ["limit=0", cookie, 400],
      ["limit=50&around=nope", cookie, 400],
    ] as const) {
      const error = await get(`${path}?${query}`, { ...headers, "Accept-Encoding": "gzip" });
      expect(error.status, query).toBe(status);
      expect(JSON.parse(error.body.toString()), query).toHaveProperty("message");
    }
  });
});
