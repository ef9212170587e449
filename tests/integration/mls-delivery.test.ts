import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  fakeCiphertext,
  fakeSealed,
  joinChannel,
  postJson,
  randomVerifier,
  signUpUser,
  startPocketBase,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";
import {
  addProposal,
  commit,
  decodeKeyPackage,
  encodeKeyPackage,
  epochOf,
  externalJoin,
  groupInfo,
  newGroup,
  newKeyPackage,
  receive,
  seal,
} from "../../app/conversation/mls/mls";
import { b64, bytes } from "./mls-helpers";

// The delivery service of sealed channels (pb_hooks/mls.pb.js) against the real PocketBase, with real MLS
// data from ts-mls (app/conversation/mls/mls.ts).

let server: RunningPocketBase;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let stranger: TestUser;

const call = (user: TestUser, route: string, body: unknown) => postJson(server.url, `/api/chat/mls/${route}`, body, user.token);

beforeAll(async () => {
  server = await startPocketBase();
  [alice, bob, carol, stranger] = await Promise.all([1, 2, 3, 4].map(() => signUpUser(server.url)));
});

afterAll(async () => {
  await server?.stop();
});

describe("key packages", () => {
  it("one package per device of a member per conversation: concurrent and repeated claims get the same one; then the last-resort one", async () => {
    const channels: Awaited<ReturnType<typeof createChannel>>[] = [];
    for (let i = 0; i < 3; i++) {
      const channel = await createChannel(alice, undefined, { sealed: true });
      expect((await joinChannel(bob, channel)).status).toBe(200);
      channels.push(channel);
    }
    const oneTime = await Promise.all([1, 2].map((i) => newKeyPackage(`${bob.id}:dev${i}`)));
    const lastResort = await newKeyPackage(`${bob.id}:last`);
    const stored = await call(bob, "key-packages", {
      device: "bob-laptop-1",
      one_time: oneTime.map((p) => b64(encodeKeyPackage(p))),
      last_resort: b64(encodeKeyPackage(lastResort)),
    });
    expect(stored.status).toBe(200);

    const claimOne = async (channelId: string) => {
      const c = await call(alice, "key-packages/claim", { user_id: bob.id, channel_id: channelId });
      expect(c.status, c.text).toBe(200);
      const list = (c.json as { key_packages: { device: string; data: string; lastResort: boolean }[] }).key_packages;
      expect(list).toHaveLength(1);
      expect(list[0].device).toBe("bob-laptop-1");
      decodeKeyPackage(bytes(list[0].data)); // real MLS data, unchanged
      return list[0];
    };
    // A page retrying (even at the same moment) gets the same package: one is used up.
    const first = await Promise.all(Array.from({ length: 5 }, () => claimOne(channels[0].id)));
    expect(new Set(first.map((h) => h.data)).size).toBe(1);
    expect(first[0].lastResort).toBe(false);
    const second = await claimOne(channels[1].id);
    expect(second.lastResort).toBe(false);
    expect([first[0].data, second.data].sort()).toEqual(oneTime.map((p) => b64(encodeKeyPackage(p))).sort());
    // None left: the last-resort package, for as many conversations as need it.
    const third = await claimOne(channels[2].id);
    expect(third).toEqual({ device: "bob-laptop-1", data: b64(encodeKeyPackage(lastResort)), lastResort: true });
    expect(await claimOne(channels[0].id)).toEqual(first[0]);

    // Only a member of the conversation may claim, and only a member's packages; bad input is a 400.
    expect((await call(stranger, "key-packages/claim", { user_id: bob.id, channel_id: channels[0].id })).status).toBe(403);
    expect((await call(alice, "key-packages/claim", { user_id: stranger.id, channel_id: channels[0].id })).status).toBe(403);
    expect((await call(alice, "key-packages/claim", { user_id: bob.id })).status).toBe(400);
    expect((await call(alice, "key-packages/claim", { user_id: "not an id", channel_id: channels[0].id })).status).toBe(400);
    expect((await call(bob, "key-packages", { device: "bob-laptop-1", one_time: ["not base64url!"], last_resort: "AAAA" })).status).toBe(
      400,
    );
    expect((await call(bob, "key-packages", { device: "x", one_time: [], last_resort: "AAAA" })).status).toBe(400);
  });
});

describe("commits", () => {
  it("only the current epoch's commit is accepted: the first wins, a stale one is a 409", async () => {
    const channel = await createChannel(alice, undefined, { sealed: true });
    expect((await joinChannel(bob, channel)).status).toBe(200);
    let state = await newGroup(channel.id, await newKeyPackage(`${alice.id}:1`));
    expect((await call(alice, "groups", { channel_id: channel.id, group_info: b64(await groupInfo(state)) })).status).toBe(200);
    expect((await call(alice, "groups", { channel_id: channel.id, group_info: b64(await groupInfo(state)) })).status).toBe(409);

    const addBob = await commit(state, [addProposal((await newKeyPackage(`${bob.id}:1`)).publicPackage)]);
    const first = await call(alice, "commits", {
      channel_id: channel.id,
      epoch: 0,
      commit: b64(addBob.commit),
      group_info: b64(await groupInfo(addBob.state)),
    });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ epoch: 1 });
    state = addBob.state;

    // Replayed for epoch 0 again: stale.
    const stale = await call(bob, "commits", { channel_id: channel.id, epoch: 0, commit: b64(addBob.commit), group_info: "AAAA" });
    expect(stale.status).toBe(409);
    expect((stale.json as { message: string }).message).toMatch(/earlier epoch/);

    // Two commits for epoch 1 at the same moment (from two of Alice's pages): exactly one is accepted.
    const [a, b] = [await commit(state), await commit(state)];
    const racing = await Promise.all(
      [a, b].map(async (c) =>
        call(alice, "commits", {
          channel_id: channel.id,
          epoch: 1,
          commit: b64(c.commit),
          group_info: b64(await groupInfo(c.state)),
        }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409]);
    const stored = await alice.pb.collection("mls_commits").getFullList({ filter: `channel = "${channel.id}"`, sort: "epoch" });
    expect(stored.map((r) => r.epoch)).toEqual([0, 1]);
    const group = await alice.pb.collection("mls_groups").getFirstListItem(`channel = "${channel.id}"`);
    expect(group.epoch).toBe(2);

    // Members read the group and its commits; nobody else does.
    expect(await stranger.pb.collection("mls_commits").getFullList({ filter: `channel = "${channel.id}"` })).toEqual([]);
    expect(await stranger.pb.collection("mls_groups").getFullList({ filter: `channel = "${channel.id}"` })).toEqual([]);
    expect(await bob.pb.collection("mls_commits").getFullList({ filter: `channel = "${channel.id}"` })).toHaveLength(2);
    // Not a member, malformed, and bad epochs are refused with 4xx.
    expect((await call(stranger, "commits", { channel_id: channel.id, epoch: 2, commit: "AAAA", group_info: "AAAA" })).status).toBe(403);
    expect((await call(alice, "commits", { channel_id: channel.id, epoch: -1, commit: "AAAA", group_info: "AAAA" })).status).toBe(400);
    expect((await call(alice, "commits", { channel_id: channel.id, epoch: 2, commit: "no spaces", group_info: "AAAA" })).status).toBe(400);
    expect((await call(alice, "commits", { channel_id: "nope", epoch: 2, commit: "AAAA", group_info: "AAAA" })).status).toBe(400);
    // Commits are not written through the collection API.
    const direct = await alice.pb
      .collection("mls_commits")
      .create({ channel: channel.id, epoch: 2, sender: alice.id, data: "AAAA" })
      .catch((e: { status: number }) => e);
    expect((direct as { status: number }).status).toBe(403);
  });
});

describe("external joins", () => {
  it("need the channel password (verifier) before the external commit is accepted", async () => {
    const channel = await createChannel(alice, undefined, { sealed: true });
    const state = await newGroup(channel.id, await newKeyPackage(`${alice.id}:1`));
    expect((await call(alice, "groups", { channel_id: channel.id, group_info: b64(await groupInfo(state)) })).status).toBe(200);
    const wrong = "A".repeat(43);

    // Without the password neither the GroupInfo nor a commit gets through.
    expect((await call(carol, "group-info", { channel_id: channel.id, verifier: wrong })).status).toBe(403);
    const info = await call(carol, "group-info", { channel_id: channel.id, verifier: channel.verifier });
    expect(info.status).toBe(200);
    const { epoch, group_info } = info.json as { epoch: number; group_info: string };
    expect(epoch).toBe(0);
    const joined = await externalJoin(bytes(group_info), await newKeyPackage(`${carol.id}:1`));
    const body = {
      channel_id: channel.id,
      epoch,
      commit: b64(joined.commit),
      group_info: b64(await groupInfo(joined.state)),
      ecdh_public_key: "k",
    };
    const noVerifier = await call(carol, "external-join", body);
    expect(noVerifier.status).toBe(400);
    const badVerifier = await call(carol, "external-join", { ...body, verifier: wrong });
    expect(badVerifier.status).toBe(403);
    expect((badVerifier.json as { message: string }).message).toBe("Incorrect password");
    expect((await alice.pb.collection("mls_groups").getFirstListItem(`channel = "${channel.id}"`)).epoch).toBe(0);
    expect(await alice.pb.collection("mls_commits").getFullList({ filter: `channel = "${channel.id}"` })).toEqual([]);

    // With it, the commit is accepted, Carol is a member, and Alice's group takes her in.
    const accepted = await call(carol, "external-join", { ...body, verifier: channel.verifier });
    expect(accepted.status).toBe(200);
    const [stored] = await alice.pb.collection("mls_commits").getFullList({ filter: `channel = "${channel.id}"` });
    const aliceAfter = await receive(state, bytes(stored.data as string));
    expect(epochOf(aliceAfter.state)).toBe(epochOf(joined.state));
    expect((await carol.pb.collection("mls_groups").getFullList()).map((g) => g.channel)).toContain(channel.id);
  });
});

describe("sealed channels' messages", () => {
  it("a sealed channel takes messages only for the group's current epoch; members read commits from an epoch on", async () => {
    const channel = { id: randomUUID(), name: "sealed", verifier: randomVerifier() };
    const created = await postJson(
      server.url,
      "/api/chat/channels",
      { ...channel, ecdh_public_key: "k".repeat(64), kdf_iterations: 600_000, sealed: true },
      alice.token,
    );
    expect(created.status).toBe(200);
    expect((await alice.pb.collection("channels").getOne(channel.id)).sealed).toBe(true);
    expect((await joinChannel(bob, channel)).status).toBe(200);
    const post = (user: TestUser, epoch?: number, content = fakeSealed(channel.id, epoch ?? 0)) =>
      user.pb
        .collection("messages")
        .create({ channel: channel.id, sender: user.id, encrypted_content: content, ...(epoch === undefined ? {} : { epoch }) })
        .then(
          () => 200,
          (e: { status: number }) => e.status,
        );

    // No group yet: nothing can be encrypted for it.
    expect(await post(alice, 0)).toBe(404);
    let state = await newGroup(channel.id, await newKeyPackage(`${alice.id}:1`));
    expect((await call(alice, "groups", { channel_id: channel.id, group_info: b64(await groupInfo(state)) })).status).toBe(200);
    expect(await post(alice, 0)).toBe(200);
    expect(await post(bob, 1)).toBe(409);

    const update = await commit(state);
    expect(
      (
        await call(alice, "commits", {
          channel_id: channel.id,
          epoch: 0,
          commit: b64(update.commit),
          group_info: b64(await groupInfo(update.state)),
        })
      ).status,
    ).toBe(200);
    state = update.state;
    // After the commit, epoch 0 is closed: a message for it is refused and must be encrypted again.
    expect(await post(bob, 0)).toBe(409);
    expect(await post(bob, 1)).toBe(200);
    // Only what members can read is stored: an application message of this group at this epoch (a real
    // one sealed by Alice's state), not random bytes, nor one of another epoch or group, nor a commit.
    const sealedNow = b64((await seal(state, new TextEncoder().encode("hello"))).message);
    expect(await post(alice, 1, sealedNow)).toBe(200);
    const stored = () => alice.pb.collection("messages").getFullList({ filter: alice.pb.filter("channel = {:c}", { c: channel.id }) });
    const before = (await stored()).length;
    const refused = [fakeCiphertext(), fakeSealed(channel.id, 0), fakeSealed(randomUUID(), 1), b64(update.commit), sealedNow.slice(0, -8)];
    for (const content of refused) expect(await post(bob, 1, content)).toBe(400);
    expect((await stored()).length).toBe(before);

    const since = (user: TestUser, query: string) =>
      fetch(`${server.url}/api/chat/mls/commits?${query}`, { headers: { Authorization: user.token } }).then(async (r) => ({
        status: r.status,
        json: (await r.json()) as { commits?: { epoch: number; data: string }[] },
      }));
    const all = await since(bob, `channel_id=${channel.id}&since=0`);
    expect(all.status).toBe(200);
    expect(all.json.commits?.map((c) => c.epoch)).toEqual([0]);
    expect(all.json.commits?.[0].data).toBe(b64(update.commit));
    expect((await since(bob, `channel_id=${channel.id}&since=1`)).json.commits).toEqual([]);
    expect((await since(stranger, `channel_id=${channel.id}&since=0`)).status).toBe(403);
    expect((await since(bob, `channel_id=${channel.id}&since=-1`)).status).toBe(400);
    expect((await since(bob, `channel_id=nope&since=0`)).status).toBe(400);

    // A classic channel's messages carry no epoch.
    const classic = await createChannel(alice);
    const classicPost = await alice.pb
      .collection("messages")
      .create({ channel: classic.id, sender: alice.id, encrypted_content: "AAAA", epoch: 3 })
      .then(
        () => 200,
        (e: { status: number }) => e.status,
      );
    expect(classicPost).toBe(400);
    // Sealed is chosen at creation: the creator cannot turn a classic channel (its history, its
    // members who never joined a group) into a sealed one afterwards.
    await alice.pb.collection("messages").create({ channel: classic.id, sender: alice.id, encrypted_content: "AAAA" });
    const late = await newGroup(classic.id, await newKeyPackage(`${alice.id}:late`));
    const sealLate = await call(alice, "groups", { channel_id: classic.id, group_info: b64(await groupInfo(late)) });
    expect(sealLate.status, sealLate.text).toBe(409);
    expect((sealLate.json as { message: string }).message).toBe(
      "Only a channel created sealed has a group; this one was created unsealed.",
    );
    expect(await alice.pb.collection("mls_groups").getFullList({ filter: alice.pb.filter("channel = {:c}", { c: classic.id }) })).toEqual(
      [],
    );
    expect((await alice.pb.collection("channels").getOne(classic.id)).sealed).toBe(false);
    // A sealed flag that is not a boolean is refused.
    const badFlag = await postJson(
      server.url,
      "/api/chat/channels",
      { id: randomUUID(), name: "x", verifier: randomVerifier(), ecdh_public_key: "k".repeat(64), kdf_iterations: 600_000, sealed: "yes" },
      alice.token,
    );
    expect(badFlag.status).toBe(400);
  });
});
