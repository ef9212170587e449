import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClientState } from "ts-mls";
import {
  colleagues,
  createChannel,
  joinChannel,
  postJson,
  signUpUser,
  startPocketBase,
  statusOf,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";
import { commit, encodeKeyPackage, externalJoin, groupInfo, newGroup, newKeyPackage, receive, seal } from "../../app/conversation/mls/mls";
import { b64, bytes } from "./mls-helpers";

// An attacker with an ordinary account, raw HTTP against the real PocketBase, cannot break a sealed
// channel's group (pocketbase/mlscheck.go, ADR 0046): what is not this group's commit for the current
// epoch, with a GroupInfo of the next epoch signed by one of the caller's own devices, is a 400 and the
// epoch does not move. Nor can they use up another user's key packages (pb_hooks/lib/mls_claims.js).

let server: RunningPocketBase;
let alice: TestUser;
let bob: TestUser;
let mallory: TestUser;

const call = (user: TestUser, route: string, body: unknown) => postJson(server.url, `/api/chat/mls/${route}`, body, user.token);
const garbage = Buffer.from("garbage").toString("base64url");

beforeAll(async () => {
  server = await startPocketBase();
  [alice, bob, mallory] = await Promise.all([1, 2, 3].map(() => signUpUser(server.url)));
});

afterAll(async () => {
  await server?.stop();
});

const groupOf = (channelId: string) =>
  alice.pb.collection("mls_groups").getFirstListItem(alice.pb.filter("channel = {:c}", { c: channelId }));
const commitsOf = (channelId: string) =>
  alice.pb.collection("mls_commits").getFullList({ filter: alice.pb.filter("channel = {:c}", { c: channelId }) });

/** A sealed channel whose group Alice created (epoch 0), with Mallory a member (she knows the password). */
async function sealedWithMallory() {
  const channel = await createChannel(alice, undefined, { sealed: true });
  expect((await joinChannel(mallory, channel)).status).toBe(200);
  const state = await newGroup(channel.id, await newKeyPackage(`${alice.id}:alice-laptop:proof`));
  const created = await call(alice, "groups", { channel_id: channel.id, group_info: b64(await groupInfo(state)) });
  expect(created.status, created.text).toBe(200);
  return { channel, state };
}

async function expectRefused(user: TestUser, route: string, body: Record<string, unknown>, message: RegExp) {
  const res = await call(user, route, body);
  expect(res.status, res.text).toBe(400);
  expect((res.json as { message: string }).message).toMatch(message);
}

describe("commits and GroupInfos", () => {
  it("garbage, another group's, another epoch's or another user's are refused with 400; the epoch and GroupInfo stay", async () => {
    const { channel, state } = await sealedWithMallory();
    const kept = (await groupOf(channel.id)).group_info as string;
    const honest = await commit(state);
    const honestInfo = b64(await groupInfo(honest.state));
    const body = { channel_id: channel.id, epoch: 0, commit: b64(honest.commit), group_info: honestInfo };

    await expectRefused(mallory, "commits", { ...body, commit: garbage, group_info: garbage }, /commit is not an MLS 1\.0 message/);
    await expectRefused(mallory, "commits", { ...body, group_info: garbage }, /group_info is not an MLS 1\.0 GroupInfo/);
    // The GroupInfo as the commit's (epoch 1) but passed on by Mallory: signed by Alice's leaf, not hers.
    await expectRefused(mallory, "commits", body, /signed by one of your own devices/);
    // A leaf whose credential names Alice, made by Mallory: still not the caller's.
    const forged = await newGroup(channel.id, await newKeyPackage(`${alice.id}:mallory-made:proof`));
    const forgedNext = await commit(forged);
    await expectRefused(
      mallory,
      "commits",
      { ...body, commit: b64(forgedNext.commit), group_info: b64(await groupInfo(forgedNext.state)) },
      /your own devices/,
    );
    // Well-formed, from Mallory's own devices, but another group's or another epoch's.
    const other = await newGroup(randomUUID(), await newKeyPackage(`${mallory.id}:mallory-1:proof`));
    const otherNext = await commit(other);
    await expectRefused(mallory, "commits", { ...body, commit: b64(otherNext.commit) }, /not for this channel's group/);
    const own = await newGroup(channel.id, await newKeyPackage(`${mallory.id}:mallory-2:proof`));
    const ownNext = await commit((await commit(own)).state); // made at epoch 1
    await expectRefused(mallory, "commits", { ...body, commit: b64(ownNext.commit) }, /made at epoch 1, not at epoch 0/);
    await expectRefused(
      mallory,
      "commits",
      { ...body, commit: b64((await commit(own)).commit), group_info: b64(await groupInfo(ownNext.state)) },
      /group_info is for epoch 2, not for epoch 1/,
    );
    // The GroupInfo in place of the commit (not an MLS private or public message).
    await expectRefused(mallory, "commits", { ...body, commit: honestInfo }, /private or public message/);

    expect((await groupOf(channel.id)).epoch).toBe(0);
    expect((await groupOf(channel.id)).group_info).toBe(kept);
    expect(await commitsOf(channel.id)).toEqual([]);

    // Alice's own commit and GroupInfo pass; the GroupInfo kept is hers.
    const accepted = await call(alice, "commits", body);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json).toEqual({ epoch: 1 });
    expect((await groupOf(channel.id)).group_info).toBe(honestInfo);
  });

  it("an external join needs a public external commit signed by the joiner's leaf, and its GroupInfo; honest joins pass", async () => {
    const { channel, state } = await sealedWithMallory();
    const info = await call(mallory, "group-info", { channel_id: channel.id, verifier: channel.verifier });
    expect(info.status).toBe(200);
    const stored = bytes((info.json as { group_info: string }).group_info);
    const joined = await externalJoin(stored, await newKeyPackage(`${mallory.id}:mallory-1:proof`));
    const body = {
      channel_id: channel.id,
      verifier: channel.verifier,
      epoch: 0,
      commit: b64(joined.commit),
      group_info: b64(await groupInfo(joined.state)),
      ecdh_public_key: "k",
    };
    const memberCommit = await commit(state);
    await expectRefused(mallory, "external-join", { ...body, commit: b64(memberCommit.commit) }, /must be an MLS public message/);
    await expectRefused(mallory, "external-join", { ...body, commit: garbage }, /not an MLS 1\.0 message/);
    await expectRefused(mallory, "external-join", { ...body, group_info: b64(await groupInfo(memberCommit.state)) }, /your own devices/);
    // Bob's external commit (he knows the password too) passed on as hers, with her own GroupInfo.
    const bobs = await externalJoin(stored, await newKeyPackage(`${bob.id}:bob-1:proof`));
    await expectRefused(mallory, "external-join", { ...body, commit: b64(bobs.commit) }, /not signed by the device that signed group_info/);
    expect((await groupOf(channel.id)).epoch).toBe(0);

    const accepted = await call(mallory, "external-join", body);
    expect(accepted.status, accepted.text).toBe(200);
    // Alice's group takes the joiner in from the accepted commit.
    const [commitRecord] = await commitsOf(channel.id);
    const after = await receive(state, bytes(commitRecord.data as string));
    expect(after.state.groupContext.epoch).toBe(1n);
  });

  it("a group is created only with its own GroupInfo at epoch 0 signed by the creator's device", async () => {
    const channel = await createChannel(alice, undefined, { sealed: true });
    const make = async (groupId: string, identity: string, steps = 0) => {
      let state: ClientState = await newGroup(groupId, await newKeyPackage(identity));
      for (let i = 0; i < steps; i++) state = (await commit(state)).state;
      return b64(await groupInfo(state));
    };
    const create = (group_info: string) => call(alice, "groups", { channel_id: channel.id, group_info });
    for (const [info, message] of [
      [garbage, /not an MLS 1\.0 GroupInfo/],
      [await make(randomUUID(), `${alice.id}:alice-1:proof`), /not for this channel's group/],
      [await make(channel.id, `${alice.id}:alice-1:proof`, 1), /for epoch 1, not for epoch 0/],
      [await make(channel.id, `${bob.id}:bob-1:proof`), /your own devices/],
    ] as const) {
      const res = await create(info);
      expect(res.status, res.text).toBe(400);
      expect((res.json as { message: string }).message).toMatch(message);
    }
    expect(await alice.pb.collection("mls_groups").getFullList({ filter: alice.pb.filter("channel = {:c}", { c: channel.id }) })).toEqual(
      [],
    );
    expect((await create(await make(channel.id, `${alice.id}:alice-1:proof`))).status).toBe(200);
  });
});

describe("classic channels", () => {
  it("refuse an MLS message with their own text, and say why they cannot be sealed", async () => {
    const { state } = await sealedWithMallory();
    const classic = await createChannel(mallory);
    const { message } = await seal(state, new TextEncoder().encode("hello"));
    let refusal: { status?: number; message?: string } = {};
    try {
      await mallory.pb.collection("messages").create({ channel: classic.id, sender: mallory.id, encrypted_content: b64(message) });
    } catch (error) {
      refusal = error as { status?: number; message?: string };
    }
    expect(refusal.status).toBe(400);
    expect(refusal.message).toBe("This is an MLS message: a classic channel's messages are encrypted with the channel's key.");
    expect(await mallory.pb.collection("messages").getFullList({ filter: mallory.pb.filter("channel = {:c}", { c: classic.id }) })).toEqual(
      [],
    );
    // sealing it is refused with what it is, not "already sealed"
    const sealing = await call(mallory, "groups", {
      channel_id: classic.id,
      group_info: b64(await groupInfo(await newGroup(classic.id, await newKeyPackage(`${mallory.id}:laptop:proof`)))),
    });
    expect(sealing.status).toBe(409);
    expect((sealing.json as { message: string }).message).toBe("Only a channel created sealed has a group; this one was created unsealed.");
  });
});

describe("key-package claims", () => {
  it("15 claims against one device are limited; a conversation the caller is not in is refused", async () => {
    const device = await Promise.all(Array.from({ length: 11 }, (_, i) => newKeyPackage(`${bob.id}:bob-phone-${i}:proof`)));
    const stored = await call(bob, "key-packages", {
      device: "bob-phone-1",
      one_time: device.slice(0, 10).map((p) => b64(encodeKeyPackage(p))),
      last_resort: b64(encodeKeyPackage(device[10])),
    });
    expect(stored.status).toBe(200);
    // A stranger's conversation is a request until Bob accepts it (ADR 0052): its claim takes nothing.
    const asked = randomUUID();
    expect((await postJson(server.url, "/api/chat/direct", { id: asked, participants: [bob.id] }, mallory.token)).status).toBe(200);
    expect((await call(mallory, "key-packages/claim", { user_id: bob.id, channel_id: asked })).status).toBe(409);
    // A colleague (they share a channel) starts 15 group conversations with Bob and claims his packages for each.
    await colleagues(mallory, bob);
    const statuses: number[] = [];
    let firstId = "";
    for (let i = 0; i < 15; i++) {
      const id = randomUUID();
      firstId ||= id;
      const dm = await postJson(server.url, "/api/chat/direct", { id, participants: [bob.id, alice.id] }, mallory.token);
      expect(dm.status, dm.text).toBe(200);
      const claim = await call(mallory, "key-packages/claim", { user_id: bob.id, channel_id: id });
      statuses.push(claim.status);
      if (claim.status === 429) expect((claim.json as { message: string }).message).toMatch(/Too many key packages claimed/);
    }
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(10).fill(429)]);
    // The same conversation again answers the same package (a retrying page), using up nothing more.
    const again = await call(mallory, "key-packages/claim", { user_id: bob.id, channel_id: firstId });
    expect(again.status).toBe(200);
    const left = await bob.pb.collection("mls_key_packages").getFullList({ filter: "last_resort = false" });
    expect(left).toHaveLength(5);
    // What was handed out for which conversation is the server's alone: no member reads or writes it.
    for (const user of [mallory, bob]) {
      expect([403, 404]).toContain(await statusOf(user.pb.collection("mls_key_claims").getFullList()));
      const write = user.pb.collection("mls_key_claims").create({ channel: firstId, user: bob.id, device: "bob-phone-1", data: "AAAA" });
      expect([400, 403]).toContain(await statusOf(write));
    }

    // A conversation Mallory is not in, or one Bob is not in: refused.
    const theirs = await createChannel(alice, undefined, { sealed: true });
    expect((await joinChannel(bob, theirs)).status).toBe(200);
    const notIn = await call(mallory, "key-packages/claim", { user_id: bob.id, channel_id: theirs.id });
    expect(notIn.status).toBe(403);
    const own = await createChannel(mallory, undefined, { sealed: true });
    const notTheirs = await call(mallory, "key-packages/claim", { user_id: alice.id, channel_id: own.id });
    expect(notTheirs.status).toBe(403);
    expect((notTheirs.json as { message: string }).message).toBe("This user is not a member of this conversation.");
  });
});
