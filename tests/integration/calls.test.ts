// Calls (ADR 30): the web server mints LiveKit tokens for members only, the real LiveKit server
// accepts them, and LiveKit's API secret is in no answer. Real PocketBase, web server and LiveKit.
import { randomBytes } from "node:crypto";
import { AccessToken, RoomServiceClient } from "livekit-server-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLiveKit, type RunningLiveKit } from "./livekit";
import { joinSignal } from "./livekit-signal.mjs";
import {
  createChannel,
  joinChannel,
  signUpUser,
  startPocketBase,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";
import { signedInClient, startWebServer, type WebClient, type WebServer } from "./web-session";

let livekit: RunningLiveKit;
let pb: RunningPocketBase;
let web: WebServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser; // a member too, for a full call
let mallory: TestUser; // a member of nothing here
let channel: TestChannel;
let asAlice: WebClient;
let asMallory: WebClient;
const device = "d3v1ce0000000001";

/** Every answer's raw text (to look for the secret in). */
const seen: string[] = [];
async function call(client: WebClient, path: string, body?: unknown) {
  try {
    const json = await client.api(path, body);
    seen.push(JSON.stringify(json));
    return { status: 200, json };
  } catch (error) {
    const { status, message } = error as { status: number; message: string };
    seen.push(message);
    return { status, json: { message } };
  }
}

const validate = (token: string) => fetch(`${livekit.apiUrl}/rtc/validate?access_token=${encodeURIComponent(token)}`);
const claims = (token: string) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));

beforeAll(async () => {
  livekit = await startLiveKit();
  pb = await startPocketBase();
  // Calls of at most two devices here, so that a third is refused.
  web = await startWebServer(pb.url, { env: { ...livekit.webEnv, CALL_MAX_PARTICIPANTS: "2" } });
  [alice, bob, carol, mallory] = await Promise.all([1, 2, 3, 4].map(() => signUpUser(pb.url)));
  channel = await createChannel(alice);
  expect((await joinChannel(bob, channel)).status).toBe(200);
  expect((await joinChannel(carol, channel)).status).toBe(200);
  [asAlice, asMallory] = await Promise.all([signedInClient(web.url, alice), signedInClient(web.url, mallory)]);
}, 15 * 60_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
  await livekit?.stop();
});

describe("call tokens", () => {
  it("a member gets a short token for this conversation's room, as user and device, that the LiveKit server accepts", async () => {
    const answer = await call(asAlice, `/api/calls/${channel.id}/token`, { device });
    expect(answer.status).toBe(200);
    const { url, token } = answer.json as { url: string; token: string };
    expect(url).toBe(livekit.url);
    const payload = claims(token);
    expect(payload.sub).toBe(`${alice.id}:${device}`);
    expect(payload.name).toBe(alice.username);
    expect(payload.video).toMatchObject({ room: channel.id, roomJoin: true, canPublish: true, canSubscribe: true });
    expect(payload.video.roomAdmin).toBeFalsy();
    expect(payload.exp - payload.nbf).toBeLessThanOrEqual(10 * 60);
    const accepted = await validate(token);
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toBe("success");
  });

  it("LiveKit refuses a token signed with another secret (so its acceptance above means something)", async () => {
    const forged = new AccessToken(livekit.apiKey, randomBytes(32).toString("base64url"), { identity: `${mallory.id}:${device}` });
    forged.addGrant({ room: channel.id, roomJoin: true });
    expect((await validate(await forged.toJwt())).status).toBe(401);
  });

  it("someone who is not a member gets 404 and no token, for an existing conversation as for none", async () => {
    const refused = await call(asMallory, `/api/calls/${channel.id}/token`, { device });
    expect(refused.status).toBe(404);
    expect(refused.json).not.toHaveProperty("token");
    expect((await call(asMallory, `/api/calls/${crypto.randomUUID()}/token`, { device })).status).toBe(404);
    expect((await call(asMallory, `/api/calls/${channel.id}/status`)).status).toBe(404);
  });

  it("bad input is a 4xx with a sentence, never a 5xx", async () => {
    for (const [path, body] of [
      [`/api/calls/not-a-uuid/token`, { device }],
      [`/api/calls/${channel.id}/token`, { device: "../../x" }],
      [`/api/calls/${channel.id}/token`, { device, extra: 1 }],
      [`/api/calls/${channel.id}/token`, {}],
      [`/api/calls/${channel.id}/token`, "text"],
    ] as const) {
      const answer = await call(asAlice, path, body);
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect((answer.json as { message: string }).message.length).toBeGreaterThan(3);
    }
    const signedOut = await fetch(`${web.url}/api/calls/${channel.id}/token`, { method: "POST", body: JSON.stringify({ device }) });
    expect(signedOut.status).toBeGreaterThanOrEqual(400);
    expect(signedOut.status).toBeLessThan(500);
  });

  it("a member is told whether a call is going on: none before anyone joins", async () => {
    const answer = await call(asAlice, `/api/calls/${channel.id}/status`);
    expect(answer).toEqual({ status: 200, json: { enabled: true, participants: 0 } });
    // The room service agrees: no room for this conversation.
    const rooms = await new RoomServiceClient(livekit.apiUrl, livekit.apiKey, livekit.apiSecret).listRooms([channel.id]);
    expect(rooms).toEqual([]);
  });

  it("a call with the most devices it may have refuses one more politely, and lets a device already in it rejoin", async () => {
    const asBob = await signedInClient(web.url, bob);
    const asCarol = await signedInClient(web.url, carol);
    const ticket = async (client: WebClient, id: string) =>
      (await call(client, `/api/calls/${channel.id}/token`, { device: id })).json as { token: string };
    const sockets = [
      await joinSignal(livekit.url, (await ticket(asAlice, device)).token),
      await joinSignal(livekit.url, (await ticket(asBob, "b0bdevice0000001")).token),
    ];
    try {
      const rooms = new RoomServiceClient(livekit.apiUrl, livekit.apiKey, livekit.apiSecret);
      await expect.poll(async () => (await rooms.listParticipants(channel.id)).length, { timeout: 10_000 }).toBe(2);
      expect(await call(asAlice, `/api/calls/${channel.id}/status`)).toEqual({
        status: 200,
        json: { enabled: true, participants: 2, withViewer: true },
      });
      // someone not in it is told only how many are
      expect(await call(asCarol, `/api/calls/${channel.id}/status`)).toEqual({ status: 200, json: { enabled: true, participants: 2 } });
      const full = await call(asCarol, `/api/calls/${channel.id}/token`, { device: "ca401device00001" });
      expect(full).toEqual({ status: 409, json: { message: "This call is full." } });
      expect((await call(asAlice, `/api/calls/${channel.id}/token`, { device })).status).toBe(200);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });

  it("LiveKit's API secret is in no answer the web server gave, nor in the page", async () => {
    seen.push(await asAlice.loadPage());
    expect(seen.length).toBeGreaterThan(5);
    for (const text of seen) expect(text).not.toContain(livekit.apiSecret);
  });
});
