import http from "node:http";
import type { AddressInfo } from "node:net";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BodyTooLargeError, limitedBody } from "~/server/body.server";
import { rawRequest } from "../integration/web";

// A body cut off at its limit is answered, not reset: the limit's error must not cancel the request's
// own body (which destroys the connection before the 413 is written). The server here reads the body
// the way Remix hands it to a route, and throws away the rest after answering, as server/body-guard.mjs does.
const LIMIT = 256 * 1024;
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const request = new Request("http://x/", {
      method: "POST",
      body: createReadableStreamFromReadable(req),
      duplex: "half",
    } as RequestInit);
    const reader = limitedBody(request, LIMIT)!.getReader();
    let status = 200;
    try {
      for (;;) if ((await reader.read()).done) break;
    } catch (error) {
      status = error instanceof BodyTooLargeError ? 413 : 500;
    }
    // a route answers on a later turn of the event loop (Remix builds the response), as here
    await new Promise((resolve) => setImmediate(resolve));
    res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify({ status }));
    req.removeAllListeners("data");
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function* chunks(total: number) {
  const piece = Buffer.alloc(64 * 1024, 1);
  for (let left = total; left > 0; left -= piece.length) yield piece;
}

describe("limitedBody", () => {
  it("a chunked body past the limit is answered 413 while it still streams, never a reset", async () => {
    for (let i = 0; i < 5; i++) {
      const answer = await rawRequest(url, { method: "POST", path: "/", body: () => chunks(8 * 1024 * 1024) });
      expect(answer.status).toBe(413);
    }
  });

  it("a body within the limit is read whole", async () => {
    const answer = await rawRequest(url, { method: "POST", path: "/", body: () => chunks(LIMIT) });
    expect(answer.status).toBe(200);
  });
});
