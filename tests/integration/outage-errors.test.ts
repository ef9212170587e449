// Failures are told as what they are: with PocketBase's disk full a send answers 507 "The server's
// disk is full" (not "You are not a member of this channel", as every PocketBase 400 used to be),
// and with PocketBase gone the web server answers 503. PocketBase's data directory is a small
// tmpfs here, filled up for real.

import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { startPocketBase, type RunningPocketBase } from "./pocketbase";
import { fillDisk, mountSmallDisk, unmountSmallDisk } from "./small-disk";
import { startWebFor, Visitor } from "./web";

let mountPoint: string;
let pb: RunningPocketBase;
let web: WebServer;
let alice: Visitor;
let channelId: string;

beforeAll(async () => {
  mountPoint = mountSmallDisk();
  pb = await startPocketBase({ dataDir: mountPoint });
  web = await startWebFor(pb.url);
  alice = new Visitor(web.url);
  await alice.signUp();
  channelId = (await alice.createChannel("Full disk")).id;
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop().catch(() => undefined);
  unmountSmallDisk(mountPoint);
});

const send = (text = "aGVsbG8=") =>
  alice.post(`/api/channels/${channelId}/messages`, { encryptedContent: text, clientId: crypto.randomUUID() });

describe("outage errors", () => {
  it("a send on a full disk answers 507 with the disk-full message, and works again once there is room", async () => {
    expect((await send()).status).toBe(200);
    const filler = fillDisk(mountPoint);
    const answer = await send("x".repeat(20_000));
    expect(answer.status, answer.text).toBe(507);
    expect((answer.json as { message: string }).message).toBe("The server's disk is full. Please tell the administrator.");
    rmSync(filler);
    const after = await send();
    expect(after.status, after.text).toBe(200);
  });

  it("with PocketBase gone, sends answer 503 saying the server is unreachable or restarting", async () => {
    // (stopping kills PocketBase, then fails to remove the mount point itself: fine)
    await pb.stop().catch(() => undefined);
    const answer = await send();
    expect(answer.status, answer.text).toBe(503);
    expect((answer.json as { message: string }).message).toMatch(/unreachable|starting up or restarting/);
    // a moment later the web server knows, and says so for every call
    await new Promise((r) => setTimeout(r, 1_500));
    const list = await alice.send({ path: "/api/channels" });
    expect(list.status).toBe(503);
    expect((list.json as { message: string }).message).toBe("The server is starting up or restarting. Please try again in a moment.");
  });
});
