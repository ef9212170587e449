// Requests at the edges of the web server (server.mjs on the built app, our PocketBase): times that
// cannot be, Remix's older data requests, API addresses written with two slashes or as a proxy's
// absolute address. Each gets a clear JSON 4xx, loses nothing, and writes no stack trace to the log.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { startPocketBase, type RunningPocketBase } from "./pocketbase";
import { startWebFor, Visitor } from "./web";

let pb: RunningPocketBase;
let web: WebServer;
let alice: Visitor;
let channelId: string;

beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebFor(pb.url);
  alice = new Visitor(web.url);
  await alice.signUp();
  channelId = (await alice.createChannel("Edges")).id;
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

const log = () => readFileSync(join(web.logDir, "web.log"), "utf8");
const IMPOSSIBLE = [
  "9999-99-99 99:99:99Z",
  "0000-00-00 00:00:00Z",
  "2026-13-45 25:61:61.999999Z",
  "2026-02-30 10:00:00.000Z",
  "2999-01-01 00:00:00.000Z",
];

describe("times a marker cannot be", () => {
  it("a read marker refuses an impossible or far-future time with 400 and keeps moving with real ones", async () => {
    const first = await alice.post(`/api/channels/${channelId}/read`, { at: "2026-12-01 09:00:00.000Z" });
    expect(first.status).toBe(200);
    for (const at of IMPOSSIBLE) {
      const answer = await alice.post(`/api/channels/${channelId}/read`, { at });
      expect(answer.status, at).toBe(400);
      expect(answer.json).toEqual({ message: "Invalid time." });
    }
    const later = await alice.post(`/api/channels/${channelId}/read`, { at: "2026-12-01 10:00:00.000Z" });
    expect(later.json).toEqual({ lastRead: "2026-12-01 10:00:00.000Z" });
  });

  it("read markers from several devices at once are all taken (the first device's row made, the others move it)", async () => {
    // (a fresh conversation: no read position yet, so every request finds none and would make one)
    const fresh = (await alice.createChannel("Edges at once")).id;
    const times = [1, 2, 3, 4, 5, 6].map((minute) => `2026-12-01 11:0${minute}:00.000Z`);
    const answers = await Promise.all(times.map((at) => alice.post(`/api/channels/${fresh}/read`, { at })));
    expect(answers.map((a) => a.status)).toEqual(times.map(() => 200));
    const after = await alice.post(`/api/channels/${fresh}/read`, { at: "2026-12-01 11:00:00.000Z" });
    expect(times).toContain((after.json as { lastRead: string }).lastRead);
  });

  it("a thread seen from several devices at once is taken from each too", async () => {
    const posted = await alice.post(`/api/channels/${channelId}/messages`, { encryptedContent: "cm9vdCBvZiBhIHRocmVhZA==" });
    const root = (posted.json as { message: { id: string } }).message.id;
    const times = [1, 2, 3, 4, 5, 6].map((minute) => `2026-12-01 12:0${minute}:00.000Z`);
    const answers = await Promise.all(times.map((at) => alice.post(`/api/threads/${root}/seen`, { at })));
    expect(answers.map((a) => a.status)).toEqual(times.map(() => 200));
  });

  it("a thread's seen marker refuses them too", async () => {
    for (const at of IMPOSSIBLE) {
      const answer = await alice.post("/api/threads/abcdefghijklmno/seen", { at });
      expect(answer.status, at).toBe(400);
      expect(answer.json).toEqual({ message: "Invalid time." });
    }
  });
});

describe("addresses at the edges", () => {
  it("a ?_data request is a 400 with a sentence, on pages and API routes, and logs nothing", async () => {
    const before = log().length;
    for (const path of [
      "/api/channels?_data=root",
      "/?_data=%FF",
      "/?_data=routes%2Fapi.admin.settings",
      `/c/${channelId}?_data=routes%2Fc.%24`,
    ]) {
      for (const method of ["GET", "POST"]) {
        const answer = await alice.send({ method, path, ...(method === "POST" ? { json: {} } : {}) });
        expect(answer.status, `${method} ${path}`).toBe(400);
        expect(answer.json, path).toEqual({ message: "This address does not take a _data parameter." });
      }
    }
    expect(log().slice(before)).not.toMatch(/Error|\n\s+at /);
  });

  it("an API address with two slashes is the API's JSON 404; a proxy's absolute address a 400; unknown pages log one line, no stack", async () => {
    const before = log().length;
    for (const path of ["//api/channels", "///api/channels/join", "//api"]) {
      const answer = await alice.send({ path, asIs: true });
      expect(answer.status, path).toBe(404);
      expect(answer.json, path).toEqual({ message: "There is no such API address." });
    }
    const absolute = await alice.send({ path: "http://evil.example/api/channels", asIs: true });
    expect(absolute.status).toBe(400);
    expect(absolute.json).toEqual({ message: "The request's address must be a path." });
    for (const path of ["/nowhere", "/etc/passwd", "/build/../package.json"]) {
      const answer = await alice.send({ path, asIs: true, headers: { Accept: "text/html" } });
      expect(answer.status, path).toBe(404);
    }
    // (one line each, without a stack trace)
    expect(log().slice(before)).toContain('404 No route matches URL "/nowhere"');
    expect(log().slice(before)).not.toMatch(/\n\s+at /);
  });
});
