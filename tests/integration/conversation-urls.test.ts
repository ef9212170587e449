// A conversation's address (ADR 0061) against the real stack (server.mjs on the built app, our
// PocketBase): every `/c/...` address, well formed or hostile, is answered with the page (200) or a
// clear 4xx, never a 5xx; the page is the same as at `/` (nothing about the conversation named is
// read or written into it), and other methods get the 405 every page gets.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { startPocketBase, type RunningPocketBase } from "./pocketbase";
import { rawRequest, startWebFor, Visitor } from "./web";

let pb: RunningPocketBase;
let web: WebServer;
let alice: Visitor;
let channelId: string;
const NAME = `Url canary ${Date.now()}`;

beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebFor(pb.url);
  alice = new Visitor(web.url);
  await alice.signUp();
  channelId = (await alice.createChannel(NAME)).id;
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

const MESSAGE = "abcdefghijklmno";
const hostile = () => [
  `/c/${channelId}`,
  `/c/${channelId}/`,
  `/c/${channelId}/t/${MESSAGE}`,
  `/c/${channelId}/m/${MESSAGE}`,
  `/c/${channelId}/x/y/z`,
  "/c/",
  "/c/not-a-conversation",
  `/c/${"z".repeat(6000)}`,
  `/c/${channelId}/t/${"y".repeat(6000)}`,
  "/c/%",
  "/c/%E0%A4%A",
  "/c/%00",
  "/c/a%2Fb",
  "/c/..%2F..%2Fapi%2Fchannels",
  "/c/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "/c/<script>alert(1)</script>",
  "/c/x?invite=1&key=secret",
  "/c/x;key=secret",
  "/c/constructor",
  "/c/__proto__/t/__proto__",
  `/c/${channelId}.data`,
  `/c/${channelId}?_data=routes%2Fc.%24`,
];

describe("a conversation's address", () => {
  it("answers every /c/ address with the page or a 4xx, never a 5xx, signed in or out", async () => {
    for (const visitor of [alice, new Visitor(web.url)]) {
      for (const path of hostile()) {
        const answer = await visitor.send({ path, headers: { Accept: "text/html" }, csrf: null });
        expect(answer.status, path).toBeGreaterThanOrEqual(200);
        expect(answer.status, path).toBeLessThan(500);
        // (an address that cannot be decoded goes to the same one with its "%" taken literally: the page then says it is not available)
        if (answer.status === 302) {
          expect(path, path).toMatch(/%/);
          expect(decodeURIComponent(String(answer.headers.location)), path).toBe(path);
        } else if (answer.status >= 300) expect(answer.status, path).toBeGreaterThanOrEqual(400);
        // nothing about the conversation named, and nothing of the address unescaped
        expect(answer.text, path).not.toContain(NAME);
        expect(answer.text, path).not.toContain("<script>alert(1)");
        expect(answer.text, path).not.toContain("secret");
      }
    }
  });

  it("is the same page as / for a channel's address (the server reads nothing from it)", async () => {
    const page = await alice.send({ path: `/c/${channelId}/t/${MESSAGE}`, headers: { Accept: "text/html" }, csrf: null });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["cache-control"]).toContain("no-store");
    expect(page.text).toContain('<meta name="csrf-token"');
    expect(page.text).toContain("<title>ChatCrypt</title>");
    const head = await rawRequest(web.url, { path: `/c/${channelId}`, method: "HEAD" });
    expect(head.status).toBe(200);
  });

  it("refuses methods other than GET and HEAD with a 405, and OPTIONS with the allowed ones", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "TRACE", "PROPFIND"]) {
      const answer = await alice.send({ path: `/c/${channelId}`, method, body: "{}", headers: { "Content-Type": "application/json" } });
      expect(answer.status, method).toBe(405);
      expect(answer.text, method).not.toContain(NAME);
    }
    const options = await rawRequest(web.url, { path: `/c/${channelId}`, method: "OPTIONS" });
    expect(options.status).toBe(204);
    // none of these addresses made the server fail (Remix's own warning for `?_data` aside)
    expect(readFileSync(join(web.logDir, "web.log"), "utf8")).not.toMatch(/Unhandled error|Unexpected Server Error/);
  });
});
