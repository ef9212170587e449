import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createChannel,
  joinChannel,
  postJson,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";
import { addProposal, commit, groupInfo, newGroup, newKeyPackage } from "../../app/conversation/mls/mls";
import { b64 } from "./mls-helpers";

// Resetting a conversation's encryption (pb_hooks/mls_reset.pb.js, ADR 0049) against the real PocketBase.

let server: RunningPocketBase;
let alice: TestUser;
let bob: TestUser;
let stranger: TestUser;

const call = (user: TestUser, route: string, body: unknown) => postJson(server.url, `/api/chat/mls/${route}`, body, user.token);
const commitsOf = async (user: TestUser, channelId: string) =>
  (await (
    await fetch(`${server.url}/api/chat/mls/commits?channel_id=${channelId}&since=0`, { headers: { Authorization: user.token } })
  ).json()) as { commits: { epoch: number }[]; group?: { generation: number; reset_by: string; reset_at: string } };

beforeAll(async () => {
  server = await startPocketBase();
  // Alice first: the first account is the workspace's owner, so Bob and the stranger are plain members.
  alice = await signUpUser(server.url);
  [bob, stranger] = await Promise.all([1, 2].map(() => signUpUser(server.url)));
});

afterAll(async () => {
  await server?.stop();
});

it("only the creator replaces the group: epoch 0, the old commits and Welcomes gone, a new generation members see", async () => {
  const channel = await createChannel(alice, undefined, { sealed: true });
  expect((await joinChannel(bob, channel)).status).toBe(200);
  const state = await newGroup(channel.id, await newKeyPackage(`${alice.id}:1`));
  expect((await call(alice, "groups", { channel_id: channel.id, group_info: b64(await groupInfo(state)) })).status).toBe(200);
  const addBob = await commit(state, [addProposal((await newKeyPackage(`${bob.id}:1`)).publicPackage)]);
  const body = { channel_id: channel.id, epoch: 0, commit: b64(addBob.commit), group_info: b64(await groupInfo(addBob.state)) };
  expect((await call(alice, "commits", { ...body, welcome: b64(addBob.welcome!) })).status).toBe(200);
  const before = await commitsOf(bob, channel.id);
  expect(before.commits.map((c) => c.epoch)).toEqual([0]);
  expect(before.group).toEqual({ generation: 0, reset_by: "", reset_at: "" });

  const fresh = await newGroup(channel.id, await newKeyPackage(`${alice.id}:2`));
  const info = b64(await groupInfo(fresh));
  // A member who is not the creator, a stranger, and bad input are refused; nothing changes.
  expect((await call(bob, "reset", { channel_id: channel.id, group_info: info })).status).toBe(403);
  expect((await call(stranger, "reset", { channel_id: channel.id, group_info: info })).status).toBe(403);
  expect((await call(alice, "reset", { channel_id: channel.id, group_info: "not base64url!" })).status).toBe(400);
  // Garbage, or the current group's GroupInfo (not at epoch 0), is not a new group: 400 (ADR 46's checks).
  expect((await call(alice, "reset", { channel_id: channel.id, group_info: "Z2FyYmFnZQ" })).status).toBe(400);
  expect((await call(alice, "reset", { channel_id: channel.id, group_info: body.group_info })).status).toBe(400);
  expect((await call(alice, "reset", { channel_id: "nope", group_info: info })).status).toBe(400);
  expect((await commitsOf(bob, channel.id)).commits).toHaveLength(1);

  const reset = await call(alice, "reset", { channel_id: channel.id, group_info: info });
  expect(reset.status).toBe(200);
  expect(reset.json).toMatchObject({ epoch: 0, generation: 1, reset_by: alice.id });
  const after = await commitsOf(bob, channel.id);
  expect(after.commits).toEqual([]);
  expect(after.group).toMatchObject({ generation: 1, reset_by: alice.id });
  expect(after.group?.reset_at).not.toBe("");
  const group = await bob.pb.collection("mls_groups").getFirstListItem(`channel = "${channel.id}"`);
  expect([group.epoch, group.group_info]).toEqual([0, info]);
  expect(await alice.pb.collection("mls_welcomes").getFullList({ filter: `channel = "${channel.id}"` })).toEqual([]);
  // The group-info route says which group it hands out.
  const handed = await call(bob, "group-info", { channel_id: channel.id, verifier: channel.verifier });
  expect(handed.json).toMatchObject({ epoch: 0, group_info: info, generation: 1 });
});

it("a workspace administrator who is in the conversation may reset it too; one who is not, may not", async () => {
  const su = await superuserClient(server.url, server.superuser);
  const [carol, dave] = [await signUpUser(server.url), await signUpUser(server.url)];
  for (const admin of [carol, dave]) await su.collection("profiles").update(admin.id, { role: "admin" });
  const channel = await createChannel(alice, undefined, { sealed: true });
  expect((await joinChannel(carol, channel)).status).toBe(200);
  const first = await newGroup(channel.id, await newKeyPackage(`${alice.id}:alice-laptop:proof`));
  expect((await call(alice, "groups", { channel_id: channel.id, group_info: b64(await groupInfo(first)) })).status).toBe(200);

  const daves = b64(await groupInfo(await newGroup(channel.id, await newKeyPackage(`${dave.id}:dave-laptop:proof`))));
  const refused = await call(dave, "reset", { channel_id: channel.id, group_info: daves });
  expect(refused.status).toBe(403);
  expect(refused.text).toContain(
    "Only the conversation's creator, a person of a one-to-one, or an administrator in it can reset its encryption.",
  );

  const carols = b64(await groupInfo(await newGroup(channel.id, await newKeyPackage(`${carol.id}:carol-laptop:proof`))));
  const reset = await call(carol, "reset", { channel_id: channel.id, group_info: carols });
  expect(reset.status, reset.text).toBe(200);
  expect(reset.json).toMatchObject({ epoch: 0, generation: 1, reset_by: carol.id });
});

it("either person of a one-to-one may reset it (to start it afresh, ADR 0098); in a group conversation, only its creator", async () => {
  // (colleagues: each takes the others' direct messages at once)
  const team = await createChannel(alice);
  for (const user of [bob, stranger]) expect((await joinChannel(user, team)).status).toBe(200);
  const groupOf = async (channelId: string, user: TestUser, device: string) =>
    b64(await groupInfo(await newGroup(channelId, await newKeyPackage(`${user.id}:${device}:proof`))));
  const start = async (participants: string[]) => {
    const id = randomUUID();
    expect((await postJson(server.url, "/api/chat/direct", { id, participants }, alice.token)).status).toBe(200);
    expect((await call(alice, "groups", { channel_id: id, group_info: await groupOf(id, alice, "alice-laptop") })).status).toBe(200);
    return id;
  };

  const pair = await start([bob.id]);
  const outsider = await call(stranger, "reset", { channel_id: pair, group_info: await groupOf(pair, stranger, "stranger-laptop") });
  expect(outsider.status).toBe(403);
  const reset = await call(bob, "reset", { channel_id: pair, group_info: await groupOf(pair, bob, "bob-phone") });
  expect(reset.status, reset.text).toBe(200);
  expect(reset.json).toMatchObject({ epoch: 0, generation: 1, reset_by: bob.id });

  const trio = await start([bob.id, stranger.id]);
  const member = await call(bob, "reset", { channel_id: trio, group_info: await groupOf(trio, bob, "bob-phone") });
  expect(member.status).toBe(403);
});
