// A call's record in its conversation comes from PocketBase (ADR 0070): when the call server's room
// empties and closes, PocketBase writes one record (when it began and ended), whoever left last and
// however: two people leaving in the same instant, and a PocketBase restarted during the call, each
// leave exactly one. Members read it; nobody else, and nobody writes it through the API. Real
// PocketBase, web server and LiveKit.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { superuserToken } from "../../scripts/lib/pocketbase.mjs";
import { startCallStack, type CallStack } from "./call-stack";
import { createChannel, joinChannel, signUpUser, type RunningPocketBase, type TestUser } from "./pocketbase";
import { signedInClient, type WebClient, type WebServer } from "./web-session";

let stack: CallStack;
let pb: RunningPocketBase;
let web: WebServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

type Record = {
  id: string;
  started: string;
  ended: string;
  unanswered?: { caller: string; name: string; declined?: { id: string; name: string }[] };
};
const records = async (client: WebClient, room: string) =>
  ((await client.api(`/api/calls/${room}/records`)) as { records: Record[] }).records;
const ticket = (client: WebClient, room: string, device: string) => stack.ticket(client, room, device);
const enter = (room: string, token: string, identity: string) => stack.enter(room, token, identity);
/** Every row of the collection for the conversation, as a superuser sees them (ended or not). */
async function rows(room: string) {
  const token = await superuserToken(pb.url, pb.superuser);
  const filter = encodeURIComponent(`channel = "${room}"`);
  const response = await fetch(`${pb.url}/api/collections/call_records/records?filter=${filter}`, { headers: { Authorization: token } });
  return ((await response.json()) as { items: Record[] }).items;
}
/** LiveKit closes an empty room after its departure timeout (10 s), and PocketBase looks every 2 s. */
const RECORDED_WITHIN_MS = 40_000;

beforeAll(async () => {
  stack = await startCallStack({ pocketbaseWatchesRooms: true });
  ({ pb, web } = stack);
  [alice, bob, carol] = await Promise.all([1, 2, 3].map(() => signUpUser(pb.url)));
}, 15 * 60_000);

afterAll(() => stack?.stop());

describe("a call's record", () => {
  it("two people who leave in the same instant leave exactly one record, read by members only", async () => {
    const channel = await createChannel(alice);
    expect((await joinChannel(bob, channel)).status).toBe(200);
    const [asAlice, asBob, asCarol] = await Promise.all([alice, bob, carol].map((u) => signedInClient(web.url, u)));
    const a = await enter(channel.id, (await ticket(asAlice, channel.id, "a11cedevice00001")).token, `${alice.id}:a11cedevice00001`);
    const b = await enter(channel.id, (await ticket(asBob, channel.id, "b0bdevice0000001")).token, `${bob.id}:b0bdevice0000001`);
    // Nothing is recorded while the call goes on.
    expect(await records(asAlice, channel.id)).toEqual([]);

    const left = Date.now();
    a.close();
    b.close();
    await expect.poll(() => records(asAlice, channel.id), { timeout: RECORDED_WITHIN_MS, interval: 500 }).toHaveLength(1);
    const [record] = await records(asBob, channel.id);
    const at = (value: string) => Date.parse(value.replace(" ", "T"));
    expect(at(record.ended) - at(record.started)).toBeGreaterThanOrEqual(0);
    // (the end is LiveKit's closing of the room less its departure timeout: within seconds of the last leave)
    console.log(`the record's end, from the last leave: ${at(record.ended) - left} ms`);
    expect(Math.abs(at(record.ended) - left)).toBeLessThan(8_000);
    // ... and it stays one (the watcher goes on looking).
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(await rows(channel.id)).toHaveLength(1);

    // A non-member learns nothing of the conversation's calls; nobody writes a record; bad input is a 4xx.
    await expect(records(asCarol, channel.id)).rejects.toMatchObject({ status: 404 });
    await expect(records(asAlice, "not-a-conversation")).rejects.toMatchObject({ status: 400 });
    expect((await fetch(`${web.url}/api/calls/${channel.id}/records`)).status).toBe(401);
    const forged = await fetch(`${pb.url}/api/collections/call_records/records`, {
      method: "POST",
      headers: { Authorization: alice.token, "content-type": "application/json" },
      body: JSON.stringify({
        channel: channel.id,
        room_sid: "RM_forged",
        started: "2026-01-01 00:00:00.000Z",
        ended: "2026-01-01 01:00:00.000Z",
      }),
    });
    expect(forged.status).toBe(403);
    expect(await rows(channel.id)).toHaveLength(1);
  }, 120_000);

  it("a call going on while PocketBase restarts is recorded once, when it ends", async () => {
    const channel = await createChannel(alice);
    const asAlice = await signedInClient(web.url, alice);
    const a = await enter(channel.id, (await ticket(asAlice, channel.id, "a11cedevice00002")).token, `${alice.id}:a11cedevice00002`);
    await expect.poll(() => rows(channel.id), { timeout: 10_000 }).toHaveLength(1);
    await pb.restart();
    a.close();
    await expect.poll(() => records(asAlice, channel.id), { timeout: RECORDED_WITHIN_MS, interval: 500 }).toHaveLength(1);
    expect(await rows(channel.id)).toHaveLength(1);
  }, 120_000);

  it("a direct conversation's call nobody answered keeps who placed it and who declined it; an answered one neither", async () => {
    // colleagues (they share a channel), so their direct conversations are no requests (ADR 52)
    const team = await createChannel(alice);
    for (const colleague of [bob, carol]) expect((await joinChannel(colleague, team)).status).toBe(200);
    const [asAlice, asBob] = await Promise.all([alice, bob].map((u) => signedInClient(web.url, u)));
    // (a one-to-one with Bob, and a group with Bob and Carol)
    const start = async (participants: string[]) =>
      ((await asAlice.api("/api/direct", { id: randomUUID(), participants })) as { id: string }).id;
    const [missed, answered] = [await start([bob.id]), await start([bob.id, carol.id])];
    const call = async (id: string, device: string, announce: object) => {
      const socket = await enter(id, (await ticket(asAlice, id, device)).token, `${alice.id}:${device}`);
      await asAlice.api(`/api/calls/${id}/presence`, announce);
      return socket;
    };
    // Alice rings in both; Bob declines the first and answers the second.
    const ringing = await call(missed, "a11cedevice00003", { event: "joined", ring: true });
    await asBob.api(`/api/calls/${missed}/presence`, { event: "declined" });
    const talking = await call(answered, "a11cedevice00004", { event: "joined", ring: true });
    const bobThere = await enter(answered, (await ticket(asBob, answered, "b0bdevice0000003")).token, `${bob.id}:b0bdevice0000003`);
    await asBob.api(`/api/calls/${answered}/presence`, { event: "joined" });
    for (const socket of [ringing, talking, bobThere]) socket.close();

    await expect.poll(() => records(asBob, missed), { timeout: RECORDED_WITHIN_MS, interval: 500 }).toHaveLength(1);
    // (and that Bob declined it: his conversation says so, not that he missed it)
    const declinedByBob = { caller: alice.id, name: alice.username, declined: [{ id: bob.id, name: bob.username }] };
    expect((await records(asBob, missed))[0].unanswered).toEqual(declinedByBob);
    expect((await records(asAlice, missed))[0].unanswered).toEqual(declinedByBob);
    await expect.poll(() => records(asBob, answered), { timeout: RECORDED_WITHIN_MS, interval: 500 }).toHaveLength(1);
    expect((await records(asBob, answered))[0].unanswered).toBeUndefined();
  }, 120_000);
});
