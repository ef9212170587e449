// A conversation's membership lines (docs/decisions/0098-membership-lines.md), against the PocketBase
// we build: written by PocketBase when a membership is made or ends (joined, left, removed by an
// administrator), none for a conversation's starting members nor for joins of a one-to-one
// conversation; members read them, nobody else, and nobody writes them; a deleted account leaves
// "Deleted user left" and its name off every line; a deleted channel takes its lines.
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  colleagues,
  createChannel,
  joinChannel,
  postJson,
  signUpUser,
  startPocketBase,
  statusOf,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";

let server: RunningPocketBase;
let su: PocketBase;
let owner: TestUser; // the workspace's owner (an administrator)
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let dave: TestUser;
let mallory: TestUser; // in nothing

type Line = { user: string; username: string; event: string; added_by: string; added_by_name: string };
const lines = async (by: TestUser, channelId: string) =>
  (await by.pb.collection("member_events").getFullList<Line>({ filter: `channel = "${channelId}"`, sort: "created,id" })).map((l) => [
    l.username,
    l.event,
    l.added_by_name,
  ]);
const nameOf = async (user: TestUser) => String((await su.collection("profiles").getOne(user.id)).username);

beforeAll(async () => {
  server = await startPocketBase();
  su = await superuserClient(server.url, server.superuser);
  owner = await signUpUser(server.url);
  [alice, bob, carol, dave, mallory] = await Promise.all([1, 2, 3, 4, 5].map(() => signUpUser(server.url)));
  // colleagues: they put each other into direct conversations at once (ADR 0052)
  await colleagues(alice, bob, carol, dave);
}, 120_000);

afterAll(() => server?.stop());

describe("a conversation's membership lines", () => {
  it("a channel: who joined, left and was removed by an administrator, read by members only, written by nobody", async () => {
    const channel = await createChannel(alice);
    for (const p of [bob, carol, dave]) expect((await joinChannel(p, channel)).status).toBe(200);
    const bobs = await bob.pb.collection("channel_members").getFirstListItem(`channel = "${channel.id}" && user = "${bob.id}"`);
    await bob.pb.collection("channel_members").delete(bobs.id);
    expect((await postJson(server.url, "/api/chat/admin/people/deactivate", { user_id: carol.id }, owner.token)).status).toBe(200);

    const [b, c, d] = await Promise.all([bob, carol, dave].map(nameOf));
    // (the creator's own join is no news)
    const expected = [
      [b, "joined", ""],
      [c, "joined", ""],
      [d, "joined", ""],
      [b, "left", ""],
      [c, "removed", ""],
    ];
    expect(await lines(alice, channel.id)).toEqual(expected);
    expect(await lines(dave, channel.id)).toEqual(expected);
    // someone who left, and someone in nothing, read none
    expect(await lines(bob, channel.id)).toEqual([]);
    expect(await lines(mallory, channel.id)).toEqual([]);
    const [any] = await su.collection("member_events").getFullList({ filter: `channel = "${channel.id}"` });
    expect(await statusOf(mallory.pb.collection("member_events").getOne(any.id))).toBe(404);
    // nobody writes, changes or deletes one through the API, a member neither
    expect(await statusOf(dave.pb.collection("member_events").create({ channel: channel.id, user: dave.id, event: "left" }))).toBe(403);
    expect(await statusOf(dave.pb.collection("member_events").update(any.id, { event: "left" }))).toBe(403);
    expect(await statusOf(dave.pb.collection("member_events").delete(any.id))).toBe(403);

    // a deleted channel takes its lines along
    await alice.pb.collection("channels").delete(channel.id);
    expect(await su.collection("member_events").getFullList({ filter: `channel = "${channel.id}"` })).toEqual([]);
  });

  it("direct conversations: no line for the people one starts with, nor for joins of a one-to-one; those added later, with who added them", async () => {
    const pair = randomUUID();
    expect((await postJson(server.url, "/api/chat/direct", { id: pair, participants: [bob.id] }, alice.token)).status).toBe(200);
    const group = randomUUID();
    expect((await postJson(server.url, "/api/chat/direct", { id: group, participants: [dave.id, bob.id] }, alice.token)).status).toBe(200);
    expect(await lines(alice, pair)).toEqual([]);
    expect(await lines(alice, group)).toEqual([]);

    // (a one-to-one's departures are news)
    const bobInPair = await bob.pb.collection("channel_members").getFirstListItem(`channel = "${pair}" && user = "${bob.id}"`);
    await bob.pb.collection("channel_members").delete(bobInPair.id);
    const [b, d] = await Promise.all([bob, dave].map(nameOf));
    expect(await lines(alice, pair)).toEqual([[b, "left", ""]]);

    // dave adds a new colleague of his to the group, then deletes his account
    const erin = await signUpUser(server.url);
    await colleagues(dave, erin);
    expect((await postJson(server.url, "/api/chat/direct/add", { channel_id: group, participants: [erin.id] }, dave.token)).status).toBe(
      200,
    );
    const e = await nameOf(erin);
    expect(await lines(alice, group)).toEqual([[e, "joined", d]]);
    expect((await postJson(server.url, "/api/chat/account/delete", { password: dave.password }, dave.token)).status).toBe(200);
    // his leaving is a line, and no line names him now (his join of alice's channel, the line he added erin by)
    expect(await lines(alice, group)).toEqual([
      [e, "joined", ""],
      ["", "left", ""],
    ]);
    const his = await su.collection("member_events").getFullList<Line>({ filter: `user = "${dave.id}" || added_by = "${dave.id}"` });
    expect(his.length).toBeGreaterThanOrEqual(3);
    expect(his.filter((l) => l.username === d || l.added_by_name === d)).toEqual([]);
  });
});
