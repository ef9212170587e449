import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChannel, joinChannel, postJson, signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";
import {
  addProposal,
  commit,
  decodeKeyPackage,
  epochCode,
  epochOf,
  groupInfo,
  join,
  newGroup,
  newKeyPackage,
  receive,
  seal,
} from "../../app/conversation/mls/mls";
import { catchUp, commitWithRebase, removeUser, type Delivery } from "../../app/conversation/mls/sync";
import { copyState } from "../../app/conversation/mls/state";
import { b64, bytes } from "./mls-helpers";
import {
  joinWithOwnPackage,
  loadPackage,
  newDevicePackages,
  storePackage,
  uploadBody,
  type StoredPackage,
} from "../../app/conversation/mls/device";

// The page's sealed-channel building blocks against the real delivery service: commits in order and rebase
// after a 409 (app/conversation/mls/sync.ts), a device's key packages (app/conversation/mls/device.ts).

let server: RunningPocketBase;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startPocketBase();
  [alice, bob] = await Promise.all([1, 2].map(() => signUpUser(server.url)));
});

afterAll(async () => {
  await server?.stop();
});

function delivery(user: TestUser, channelId: string): Delivery & { stale: number } {
  return {
    stale: 0,
    async postCommit(epoch, data, info) {
      const body = { channel_id: channelId, epoch, commit: b64(data), group_info: b64(info) };
      const res = await postJson(server.url, "/api/chat/mls/commits", body, user.token);
      if (res.status === 409) {
        this.stale++;
        return "stale";
      }
      if (res.status !== 200) throw new Error(`commit refused with ${res.status}: ${res.text}`);
      return "accepted";
    },
    async commitsSince(epoch) {
      const records = await user.pb
        .collection("mls_commits")
        .getFullList({ filter: user.pb.filter("channel = {:c} && epoch >= {:e}", { c: channelId, e: epoch }), sort: "epoch" });
      return records.map((r) => bytes(r.data as string));
    },
  };
}

/** A sealed channel of Alice's with Bob added by her first commit: both states at epoch 1. */
async function aliceAndBob() {
  const channel = await createChannel(alice, undefined, { sealed: true });
  expect((await joinChannel(bob, channel)).status).toBe(200);
  const bobDevice = await newKeyPackage(`${bob.id}:1`);
  const start = await newGroup(channel.id, await newKeyPackage(`${alice.id}:1`));
  const sealed = await postJson(
    server.url,
    "/api/chat/mls/groups",
    { channel_id: channel.id, group_info: b64(await groupInfo(start)) },
    alice.token,
  );
  expect(sealed.status).toBe(200);
  const toAlice = delivery(alice, channel.id);
  const toBob = delivery(bob, channel.id);
  const added = await commitWithRebase(start, () => [addProposal(bobDevice.publicPackage)], toAlice);
  const b = await join(added.welcome!, bobDevice);
  expect(epochOf(b)).toBe(1n);
  return { channel, toAlice, toBob, a: added.state, b };
}

describe("sealed channels: commits in order, rebase after a 409", () => {
  it("two members committing at the same moment both end in the same epoch, and nothing is lost", async () => {
    const { channel, toAlice, toBob, ...start } = await aliceAndBob();
    let { a, b } = start;

    // Both update their keys at the same moment, from epoch 1: one commit wins, the other is rebuilt on it.
    const [ra, rb] = await Promise.all([commitWithRebase(a, () => [], toAlice), commitWithRebase(b, () => [], toBob)]);
    expect(toAlice.stale + toBob.stale).toBe(1);
    const loser = toAlice.stale ? "alice" : "bob";
    // The winner learns of the loser's rebased commit by catching up; both end in epoch 3 with one key schedule.
    a = loser === "alice" ? ra.state : await catchUp(ra.state, toAlice);
    b = loser === "bob" ? rb.state : await catchUp(rb.state, toBob);
    expect(epochOf(a)).toBe(3n);
    expect(epochOf(b)).toBe(3n);
    expect(epochCode(a)).toBe(epochCode(b));
    const stored = await alice.pb
      .collection("mls_commits")
      .getFullList({ filter: alice.pb.filter("channel = {:c}", { c: channel.id }), sort: "epoch" });
    expect(stored.map((r) => r.epoch)).toEqual([0, 1, 2]);

    // Nothing lost: messages sent in the new epoch read both ways.
    const fromBob = await seal(b, new TextEncoder().encode("after the race"));
    expect(new TextDecoder().decode((await receive(a, fromBob.message)).plaintext)).toBe("after the race");
  });

  it("a commit made from an outdated state is refused (409) and rebuilt after catching up", async () => {
    const { toAlice, toBob, a: aliceAt1, b: bobAt1 } = await aliceAndBob();
    // Alice moves on twice while Bob's page sleeps.
    const twice = await commitWithRebase(await commitWithRebase(aliceAt1, () => [], toAlice).then((r) => r.state), () => [], toAlice);
    // Sent without catching up, the same commit is stale.
    const made = await commit(copyState(bobAt1));
    expect(await toBob.postCommit(1, made.commit, await groupInfo(made.state))).toBe("stale");
    const rebased = await commitWithRebase(bobAt1, () => [], toBob);
    expect(epochOf(rebased.state)).toBe(4n);
    const aliceNow = await catchUp(twice.state, toAlice);
    expect(epochCode(aliceNow)).toBe(epochCode(rebased.state));
  });
});

describe("sealed channels: a device's key packages", () => {
  it("a package sent to the delivery service, claimed by a member and added, lets the device join after its private half was stored", async () => {
    const channel = await createChannel(alice, undefined, { sealed: true });
    expect((await joinChannel(bob, channel)).status).toBe(200);
    const packages = await newDevicePackages(`${bob.id}:laptop`, 3);
    expect((await postJson(server.url, "/api/chat/mls/key-packages", uploadBody("bob-laptop", packages), bob.token)).status).toBe(200);
    // What the device keeps (sealed) and reads back after a reload.
    const kept = JSON.parse(JSON.stringify([...packages.oneTime, packages.lastResort].map(storePackage))) as StoredPackage[];

    const start = await newGroup(channel.id, await newKeyPackage(`${alice.id}:1`));
    expect(
      (await postJson(server.url, "/api/chat/mls/groups", { channel_id: channel.id, group_info: b64(await groupInfo(start)) }, alice.token))
        .status,
    ).toBe(200);
    const claim = await postJson(server.url, "/api/chat/mls/key-packages/claim", { user_id: bob.id, channel_id: channel.id }, alice.token);
    const [claimed] = (claim.json as { key_packages: { data: string }[] }).key_packages;
    const added = await commitWithRebase(start, () => [addProposal(decodeKeyPackage(bytes(claimed.data)))], delivery(alice, channel.id));

    const joined = await joinWithOwnPackage(added.welcome!, kept.map(loadPackage));
    expect(epochCode(joined.state)).toBe(epochCode(added.state));
    const hello = await seal(added.state, new TextEncoder().encode("welcome, laptop"));
    expect(new TextDecoder().decode((await receive(joined.state, hello.message)).plaintext)).toBe("welcome, laptop");
    // A device holding none of the packages cannot join from that welcome.
    await expect(joinWithOwnPackage(added.welcome!, [await newKeyPackage(`${bob.id}:other`)])).rejects.toThrow(/none of this device/);
  });
});

describe("sealed channels: removal", () => {
  it("a removed user's device, handed the removal and what follows, decrypts nothing sent afterwards", async () => {
    const { toAlice, toBob, a, b } = await aliceAndBob();
    expect(removeUser(a, bob.id)).toHaveLength(1);
    expect(removeUser(a, "nobody")).toEqual([]);
    const removed = await commitWithRebase(a, (state) => removeUser(state, bob.id), toAlice);
    expect(removeUser(removed.state, bob.id)).toEqual([]);
    const after = await seal(removed.state, new TextEncoder().encode("after bob left"));
    // Bob's device takes the removal commit (or refuses it); either way the next message stays closed to it.
    const bobAfter = await catchUp(b, toBob).catch(() => b);
    await expect(receive(bobAfter, after.message)).rejects.toThrow();
  });
});
