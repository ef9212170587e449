// A group conversation's name on the server (ADR 50): never in clear. Creating one with a name is
// refused; a participant keeps the name sealed for the group's current epoch only; nobody else may.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupInfo, newGroup, newKeyPackage } from "../../app/conversation/mls/mls";
import { b64 } from "./mls-helpers";
import { colleagues, postJson, signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";

let server: RunningPocketBase;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let mallory: TestUser; // in no conversation of theirs

const start = (user: TestUser, body: Record<string, unknown>) =>
  postJson(server.url, "/api/chat/direct", { id: randomUUID(), ...body }, user.token);
const name = (user: TestUser | null, body: Record<string, unknown>) => postJson(server.url, "/api/chat/direct/name", body, user?.token);
const sealed = (epoch: number) => `${epoch}.${b64(new Uint8Array(48).fill(7))}`;

beforeAll(async () => {
  server = await startPocketBase();
  [alice, bob, carol, mallory] = await Promise.all([1, 2, 3, 4].map(() => signUpUser(server.url)));
  // colleagues: they share a channel, so each puts the others into conversations at once (ADR 0052)
  await colleagues(alice, bob, carol, mallory);
});

afterAll(async () => {
  await server?.stop();
});

describe("group names sealed inside the group", () => {
  it("a conversation is never created with a name in clear", async () => {
    const named = await start(alice, { participants: [bob.id, carol.id], name: "Launch plans" });
    expect(named.status).toBe(400);
    expect((named.json as { message: string }).message).toBe(
      "A conversation's name is not sent to the server: it is kept sealed inside the conversation.",
    );
    const { id } = (await start(alice, { participants: [bob.id, carol.id] })).json as { id: string };
    expect((await alice.pb.collection("channels").getOne(id)).name).toBe("");
  });

  it("a participant keeps the name sealed for the group's current epoch, and only for it", async () => {
    const { id } = (await start(alice, { participants: [bob.id, carol.id] })).json as { id: string };
    // no group yet: no epoch to seal it for
    expect((await name(alice, { channel_id: id, epoch: 0, sealed: sealed(0) })).status).toBe(409);
    const state = await newGroup(id, await newKeyPackage(`${alice.id}:a11cedevice00001`));
    expect(
      (await postJson(server.url, "/api/chat/mls/groups", { channel_id: id, group_info: b64(await groupInfo(state)) }, alice.token)).status,
    ).toBe(200);

    expect((await name(bob, { channel_id: id, epoch: 0, sealed: sealed(0) })).status).toBe(200);
    const record = await carol.pb.collection("channels").getOne(id);
    expect(record.sealed_name).toBe(sealed(0));
    expect(record.name).toBe("");

    // another epoch, a sealed name for another epoch than it says, malformed input: refused, nothing changes
    expect((await name(bob, { channel_id: id, epoch: 1, sealed: sealed(1) })).status).toBe(409);
    for (const body of [
      { channel_id: id, epoch: 0, sealed: sealed(1) },
      { channel_id: id, epoch: 0, sealed: "0.short" },
      { channel_id: id, epoch: 0, sealed: "Launch plans" },
      { channel_id: id, epoch: -1, sealed: sealed(0) },
      { channel_id: id, epoch: "0", sealed: sealed(0) },
      { channel_id: id, epoch: 0, sealed: `0.${"A".repeat(2000)}` },
      { channel_id: "x", epoch: 0, sealed: sealed(0) },
      {},
    ])
      expect((await name(bob, body)).status, JSON.stringify(body).slice(0, 80)).toBe(400);
    // carried on to the epoch (a page that knew the name before): only while none is sealed for it yet;
    // a carry that finds one, or finds the group at another epoch, has nothing to do and is not refused
    // (a refusal is a line in every participant's console at a group's creation, ADR 0076)
    const other = `0.${b64(new Uint8Array(48).fill(9))}`;
    const carried = await name(carol, { channel_id: id, epoch: 0, sealed: other, carry: true });
    expect([carried.status, carried.json]).toEqual([200, { ok: true, kept: false }]);
    const ahead = await name(carol, { channel_id: id, epoch: 1, sealed: `1.${b64(new Uint8Array(48).fill(9))}`, carry: true });
    expect([ahead.status, ahead.json]).toEqual([200, { ok: true, kept: false }]);
    expect((await carol.pb.collection("channels").getOne(id)).sealed_name).toBe(sealed(0));
    expect((await name(carol, { channel_id: id, epoch: 0, sealed: sealed(0), carry: "yes" })).status).toBe(400);
    // someone else, or nobody signed in
    expect((await name(mallory, { channel_id: id, epoch: 0, sealed: sealed(0) })).status).toBe(404);
    expect((await name(null, { channel_id: id, epoch: 0, sealed: sealed(0) })).status).toBe(401);
    expect((await carol.pb.collection("channels").getOne(id)).sealed_name).toBe(sealed(0));
  });

  it("a one-to-one has no name to keep", async () => {
    const { id } = (await start(alice, { participants: [mallory.id] })).json as { id: string };
    expect((await name(alice, { channel_id: id, epoch: 0, sealed: sealed(0) })).status).toBe(400);
  });
});
