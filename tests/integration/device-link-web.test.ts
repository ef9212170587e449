// New devices approved from a signed-in one (docs/decisions/0059-device-approval.md), through the web
// app in front of our PocketBase: the session cookie a sign-in by approval gets, and every route's
// refusals (methods, garbage, oversize, no CSRF token, another account's request).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newLinkKeyPair } from "~/crypto";
import { startPocketBase, type RunningPocketBase } from "./pocketbase";
import { startWebServer, type WebServer } from "./web-session";
import { Visitor } from "./web";

let pb: RunningPocketBase;
let web: WebServer;
beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebServer(pb.url);
}, 240_000);
afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

describe("device links through the web app", () => {
  const CHROME_ANDROID =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";

  it("an approved request signs the new device in with the session cookie, once; it is listed among the devices", async () => {
    const bob = new Visitor(web.url);
    const account = await bob.signUp();
    const phone = new Visitor(web.url);
    await phone.visit();
    const device = await newLinkKeyPair();
    const started = await phone.send({
      method: "POST",
      path: "/api/auth/device-link",
      json: { identity: account.email, deviceKey: device.publicKey },
      headers: { "User-Agent": CHROME_ANDROID },
    });
    expect(started.status, started.text).toBe(200);
    const { id, secret } = started.json as { id: string; secret: string };

    const listed = await bob.send({ path: "/api/device-links" });
    expect(listed.json).toEqual({
      requests: [expect.objectContaining({ id, deviceKey: device.publicKey, approverKey: "", agent: "Chrome on Android" })],
    });
    const approver = await newLinkKeyPair();
    expect((await bob.post(`/api/device-links/${id}/claim`, { approverKey: approver.publicKey })).status).toBe(200);
    const pending = await phone.post("/api/auth/device-link/poll", { id, secret });
    expect(pending.json).toEqual({ state: "pending", approverKey: approver.publicKey });
    expect((await bob.post(`/api/device-links/${id}/approve`, { approverKey: approver.publicKey, sealed: "A".repeat(120) })).status).toBe(
      200,
    );

    const approved = await phone.send({
      method: "POST",
      path: "/api/auth/device-link/poll",
      json: { id, secret },
      headers: { "User-Agent": CHROME_ANDROID },
    });
    expect(approved.status, approved.text).toBe(200);
    const answer = approved.json as { state: string; sealed: string; approverKey: string; user: { id: string; email: string } };
    expect(answer).toMatchObject({ state: "approved", sealed: "A".repeat(120), approverKey: approver.publicKey, user: { id: account.id } });
    expect(approved.headers["x-csrf-token"]).toBeTruthy();
    const sessions = await phone.send({ path: "/api/auth/sessions" });
    expect(sessions.status).toBe(200);
    expect(sessions.text).toContain("Chrome on Android");
    expect((await phone.post("/api/auth/device-link/poll", { id, secret })).status).toBe(404);
  });

  it("every route refuses what it should with a clear 4xx", async () => {
    const bob = new Visitor(web.url);
    const account = await bob.signUp();
    const mallory = new Visitor(web.url);
    await mallory.signUp();
    const stranger = new Visitor(web.url);
    await stranger.visit();
    const device = await newLinkKeyPair();
    const started = await stranger.post("/api/auth/device-link", { identity: account.email, deviceKey: device.publicKey });
    const { id, secret } = started.json as { id: string; secret: string };

    const cases: [Visitor, string, string, unknown, number][] = [
      [stranger, "GET", "/api/auth/device-link", undefined, 405],
      [stranger, "POST", "/api/auth/device-link", { identity: account.email }, 400],
      [stranger, "POST", "/api/auth/device-link", { identity: account.email, deviceKey: device.publicKey, extra: 1 }, 400],
      [stranger, "POST", "/api/auth/device-link", { deviceKey: device.publicKey }, 400],
      [stranger, "POST", "/api/auth/device-link", "garbage", 400],
      [stranger, "GET", "/api/auth/device-link/poll", undefined, 405],
      [stranger, "POST", "/api/auth/device-link/poll", { id, secret: "z".repeat(43) }, 404],
      [stranger, "POST", "/api/auth/device-link/poll", { id: "x", secret }, 400],
      [stranger, "POST", "/api/auth/device-link/cancel", { id, secret: "z".repeat(43) }, 404],
      [stranger, "GET", "/api/device-links", undefined, 401],
      [stranger, "POST", `/api/device-links/${id}/deny`, {}, 401],
      [mallory, "POST", `/api/device-links/${id}/claim`, { approverKey: device.publicKey }, 404],
      [mallory, "POST", `/api/device-links/${id}/deny`, {}, 404],
      [mallory, "POST", `/api/device-links/${id}/release`, { approverKey: device.publicKey }, 404],
      [bob, "POST", `/api/device-links/${id}/release`, {}, 400],
      [bob, "GET", `/api/device-links/${id}/deny`, undefined, 405],
      [bob, "POST", `/api/device-links/${id}/explode`, {}, 404],
      [bob, "POST", "/api/device-links/not-an-id/deny", {}, 404],
      [bob, "POST", `/api/device-links/${id}/claim`, { approverKey: "short" }, 400],
      [bob, "POST", `/api/device-links/${id}/approve`, { approverKey: device.publicKey, sealed: "!!" }, 400],
      [bob, "POST", `/api/device-links/${id}/approve`, { approverKey: device.publicKey, sealed: "A".repeat(120) }, 409],
    ];
    for (const [who, method, path, body, status] of cases) {
      const answer =
        typeof body === "string"
          ? await who.send({ method, path, body, headers: { "Content-Type": "application/json" } })
          : await who.send({ method, path, json: body });
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}: ${answer.text}`).toBe(status);
      expect(answer.text).not.toMatch(/at .+\.(js|ts):\d+/);
    }
    // no CSRF token, and a body far too large
    expect((await stranger.send({ method: "POST", path: "/api/auth/device-link", json: {}, csrf: null })).status).toBe(403);
    const huge = await stranger.send({
      method: "POST",
      path: "/api/auth/device-link",
      json: { identity: "x".repeat(400_000), deviceKey: device.publicKey },
    });
    expect(huge.status).toBe(413);
    // still pending for Bob after all of it
    expect(((await bob.send({ path: "/api/device-links" })).json as { requests: { id: string }[] }).requests.map((r) => r.id)).toEqual([
      id,
    ]);
  });
});
