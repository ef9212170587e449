import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  colleagues,
  createChannel,
  fakeSealed,
  fakePublicKey,
  joinChannel,
  postJson,
  randomVerifier,
  signUpUser,
  startPocketBase,
  statusOf,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";
import { groupInfo, newGroup, newKeyPackage } from "../../app/conversation/mls/mls";
import { b64 } from "./mls-helpers";

// Direct conversations on the server (pb_hooks/direct.pb.js, migration 1795366430): who may start,
// find, read, join, leave, clear and delete them, and the exact-username look-up.
let server: RunningPocketBase;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser; // in no conversation of theirs

const start = (user: TestUser, participants: string[], name?: string) =>
  postJson(server.url, "/api/chat/direct", { id: randomUUID(), participants, ...(name ? { name } : {}) }, user.token);
const lookup = (user: TestUser, username: string) => postJson(server.url, "/api/chat/users/lookup", { username }, user.token);

beforeAll(async () => {
  server = await startPocketBase();
  [alice, bob, carol] = await Promise.all([1, 2, 3].map(() => signUpUser(server.url)));
  // colleagues: they share a channel, so each puts the others into conversations at once (ADR 0052)
  await colleagues(alice, bob, carol);
});

afterAll(async () => {
  await server?.stop();
});

describe("direct conversations", () => {
  it("a one-to-one is made once: starting it again, from either side, finds it", async () => {
    const first = await start(alice, [bob.id]);
    expect(first.status).toBe(200);
    const { id, existing } = first.json as { id: string; existing: boolean };
    expect(existing).toBe(false);
    expect((await start(alice, [bob.id, alice.id, bob.id])).json).toEqual({ id, existing: true });
    expect((await start(bob, [alice.id])).json).toEqual({ id, existing: true });
    const record = await alice.pb.collection("channels").getOne(id);
    expect(record.direct).toBe(true);
    expect(record.sealed).toBe(true);
  });

  it("a group's start asked again with its id (the answer was lost) answers the group it made; nobody else may reuse the id", async () => {
    const id = randomUUID();
    const ask = (user: TestUser, participants: string[]) => postJson(server.url, "/api/chat/direct", { id, participants }, user.token);
    expect((await ask(alice, [bob.id, carol.id])).json).toEqual({ id, existing: false });
    expect((await ask(alice, [bob.id, carol.id])).json).toEqual({ id, existing: false });
    expect((await alice.pb.collection("channel_members").getFullList({ filter: `channel = "${id}"` })).length).toBe(3);
    const other = await ask(bob, [alice.id, carol.id]);
    expect(other.status).toBe(400);
    expect(other.json).toMatchObject({ message: "A conversation with this ID already exists." });
  });

  it("a non-participant reads nothing of it, cannot join it with any password, nor take part in its group", async () => {
    const { id } = (await start(alice, [bob.id])).json as { id: string };
    expect(await statusOf(carol.pb.collection("channels").getOne(id))).toBe(404);
    expect((await carol.pb.collection("channel_members").getFullList({ filter: `channel = "${id}"` })).length).toBe(0);
    expect((await carol.pb.collection("messages").getFullList({ filter: `channel = "${id}"` })).length).toBe(0);
    const join = await postJson(
      server.url,
      "/api/chat/channels/join",
      { channel_id: id, verifier: randomVerifier(), ecdh_public_key: fakePublicKey() },
      carol.token,
    );
    expect(join.status).toBe(404);
    expect((await postJson(server.url, "/api/chat/mls/group-info", { channel_id: id }, carol.token)).status).toBe(403);
    expect(
      (await postJson(server.url, "/api/chat/mls/group-info", { channel_id: id, verifier: randomVerifier() }, carol.token)).status,
    ).toBe(403);
    expect((await postJson(server.url, "/api/chat/direct/add", { channel_id: id, participants: [carol.id] }, carol.token)).status).toBe(
      404,
    );
    // A participant's page asks for the GroupInfo without a verifier (there is no group yet).
    expect((await postJson(server.url, "/api/chat/mls/group-info", { channel_id: id }, bob.token)).status).toBe(404);
  });

  it("nobody deletes or clears it for the others, removes someone else, or deletes another's message; anyone may leave it", async () => {
    const { id } = (await start(alice, [bob.id, carol.id])).json as { id: string };
    const info = b64(await groupInfo(await newGroup(id, await newKeyPackage(`${alice.id}:alice-1:proof`))));
    expect((await postJson(server.url, "/api/chat/mls/groups", { channel_id: id, group_info: info }, alice.token)).status).toBe(200);
    const message = await bob.pb
      .collection("messages")
      .create({ channel: id, sender: bob.id, encrypted_content: fakeSealed(id, 0), epoch: 0 });
    expect(await statusOf(alice.pb.collection("messages").delete(message.id))).toBe(404);
    expect(await statusOf(alice.pb.collection("channels").delete(id))).toBe(404);
    expect((await postJson(server.url, `/api/chat/channels/${id}/clear`, {}, alice.token)).status).toBe(403);
    const carolMember = await alice.pb.collection("channel_members").getFirstListItem(`channel = "${id}" && user = "${carol.id}"`);
    expect(await statusOf(alice.pb.collection("channel_members").delete(carolMember.id))).toBe(404);
    const aliceMember = await alice.pb.collection("channel_members").getFirstListItem(`channel = "${id}" && user = "${alice.id}"`);
    expect(await statusOf(alice.pb.collection("channel_members").delete(aliceMember.id))).toBe(200);
    expect(await statusOf(bob.pb.collection("messages").delete(message.id))).toBe(200);
  });

  it("groups hold at most 12 people, people are added to groups only, and only existing users", async () => {
    const many = await Promise.all(Array.from({ length: 11 }, () => signUpUser(server.url)));
    const twelve = await start(
      alice,
      many.map((u) => u.id),
    );
    expect(twelve.status).toBe(200);
    expect((await start(alice, [...many.map((u) => u.id), bob.id])).status).toBe(400);
    const { id } = twelve.json as { id: string };
    expect((await postJson(server.url, "/api/chat/direct/add", { channel_id: id, participants: [bob.id] }, alice.token)).status).toBe(400);
    const group = (await start(alice, [bob.id, carol.id])).json as { id: string };
    const dave = await signUpUser(server.url);
    expect((await postJson(server.url, "/api/chat/direct/add", { channel_id: group.id, participants: [dave.id] }, bob.token)).status).toBe(
      200,
    );
    // Dave shares no channel with Bob: he is asked first (ADR 0052), and in once he accepts.
    expect(await statusOf(dave.pb.collection("channels").getOne(group.id))).toBe(404);
    const accepted = await postJson(server.url, "/api/chat/direct/requests/answer", { channel_id: group.id, answer: "accept" }, dave.token);
    expect(accepted.status).toBe(200);
    expect((await dave.pb.collection("channels").getOne(group.id)).id).toBe(group.id);
    const oneToOne = (await start(alice, [bob.id])).json as { id: string };
    expect(
      (await postJson(server.url, "/api/chat/direct/add", { channel_id: oneToOne.id, participants: [carol.id] }, alice.token)).status,
    ).toBe(400);
    expect((await start(alice, ["aaaaaaaaaaaaaaa"])).status).toBe(404);
    for (const body of [
      {},
      { id: "x", participants: [bob.id] },
      { id: randomUUID(), participants: "bob" },
      { id: randomUUID(), participants: [] },
      { id: randomUUID(), participants: [bob.id], name: "n".repeat(101) },
    ])
      expect((await postJson(server.url, "/api/chat/direct", body, alice.token)).status).toBe(400);
    expect((await postJson(server.url, "/api/chat/direct", { id: randomUUID(), participants: [bob.id] })).status).toBe(401);
  });

  it("a password channel's join still works, and a direct conversation is not a channel one can join", async () => {
    const channel = await createChannel(alice);
    expect((await joinChannel(carol, channel)).status).toBe(200);
  });
});

describe("exact-username look-up", () => {
  it("answers the same way, in the same time, whether the name exists; never a list", async () => {
    const found = await lookup(carol, bob.username);
    expect(found.status).toBe(200);
    expect(found.json).toEqual({ user: { id: bob.id, username: bob.username } });
    const missing = await lookup(carol, "nobody_by_this_name");
    expect(missing.status).toBe(200);
    expect(missing.json).toEqual({ user: null });
    expect((await lookup(carol, bob.username.slice(0, 5))).json).toEqual({ user: null });
    const timed = async (name: string) => {
      const t0 = performance.now();
      await lookup(alice, name);
      return performance.now() - t0;
    };
    const times = { found: [] as number[], missing: [] as number[] };
    for (let i = 0; i < 5; i++) {
      times.found.push(await timed(carol.username));
      times.missing.push(await timed(`missing_${i}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2];
    // Both wait for the same floor (150 ms); what is left is noise, not a tell.
    expect(Math.min(...times.found, ...times.missing)).toBeGreaterThanOrEqual(145);
    expect(Math.abs(median(times.found) - median(times.missing))).toBeLessThan(75);
  });

  it("is rate-limited per account, and refuses malformed names", async () => {
    const user = await signUpUser(server.url);
    expect((await lookup(user, "a")).status).toBe(400);
    expect((await postJson(server.url, "/api/chat/users/lookup", { username: ["x"] }, user.token)).status).toBe(400);
    expect((await postJson(server.url, "/api/chat/users/lookup", { username: "bob_name" })).status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await lookup(user, `someone_${i}`)).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});
