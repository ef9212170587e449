import { describe, expect, it } from "vitest";
import { commit, epochOf, join, receive } from "../../app/conversation/mls/mls";
import { leaves, removeUser, staleLeaves } from "../../app/conversation/mls/sync";
import { decodeBody, encodeBody } from "../../app/conversation/messages/body";
import { groupOf } from "./mls-group-of";

// Which leaves a member's page removes from a sealed channel (ADR 0015): devices of users who are no
// longer members, and its own device's earlier leaves from before a rejoin; never its own current leaf.
const alice = "aliceaaaaaaaaaa";
const bob = "bobbbbbbbbbbbbb";
const carol = "carolcccccccccc";

const removed = (proposals: ReturnType<typeof staleLeaves>) =>
  proposals.map((p) => (p.proposalType === "remove" ? p.remove.removed : -1)).sort();

describe("stale leaves of a sealed channel", () => {
  it("proposes removing every device of a user who is no longer a member, and nothing while all are members", async () => {
    const { creator } = await groupOf([`${alice}:laptop01:p`, `${bob}:laptop01:p`, `${carol}:laptop01:p`, `${carol}:phone001:p`]);
    expect(leaves(creator).map((l) => l.identity.split(":")[0])).toEqual([alice, bob, carol, carol]);
    const self = { userId: alice, device: "laptop01" };
    expect(staleLeaves(creator, new Set([alice, bob, carol]), self)).toEqual([]);
    expect(removed(staleLeaves(creator, new Set([alice, bob]), self))).toEqual([2, 3]);
    expect(removed(removeUser(creator, carol))).toEqual([2, 3]);

    // Committed, the removal leaves a group without Carol's devices.
    const after = await commit(creator, staleLeaves(creator, new Set([alice, bob]), self));
    expect(leaves(after.state).map((l) => l.identity.split(":")[0])).toEqual([alice, bob]);
    expect(epochOf(after.state)).toBe(epochOf(creator) + 1n);
  });

  it("removes this device's own earlier leaf, never its current one", async () => {
    const { creator, welcome, devices } = await groupOf([`${alice}:laptop01:old`, `${bob}:laptop01:p`, `${alice}:laptop01:new`]);
    const rejoined = await join(welcome, devices[2]);
    const self = { userId: alice, device: "laptop01" };
    expect(removed(staleLeaves(rejoined, new Set([alice, bob]), self))).toEqual([0]);
    // From the old leaf's point of view, the other leaf of the same device is the one to go.
    expect(removed(staleLeaves(creator, new Set([alice, bob]), self))).toEqual([2]);
    const bobState = await join(welcome, devices[1]);
    const made = await commit(rejoined, staleLeaves(rejoined, new Set([alice, bob]), self));
    const seen = await receive(bobState, made.commit);
    expect(leaves(seen.state).map((l) => l.identity)).toEqual([`${bob}:laptop01:p`, `${alice}:laptop01:new`]);
  });

  it("removes the user's leaves of before a reset (ADR 0051), another device's included, never this device's", async () => {
    const { creator, welcome, devices } = await groupOf([`${bob}:laptop01:p`, `${alice}:laptop01:oldkey`, `${alice}:phone001:newkey`]);
    const phone = await join(welcome, devices[2]);
    const self = { userId: alice, device: "phone001" };
    // Without the retired set, the laptop's leaf is another device of a member: it stays.
    expect(staleLeaves(phone, new Set([alice, bob]), self)).toEqual([]);
    const retired = new Set([`${alice}:laptop01:oldkey`, `${alice}:phone001:newkey`]);
    expect(removed(staleLeaves(phone, new Set([alice, bob]), self, retired))).toEqual([1]);
    const made = await commit(phone, staleLeaves(phone, new Set([alice, bob]), self, retired));
    const seen = await receive(creator, made.commit);
    expect(leaves(seen.state).map((l) => l.identity)).toEqual([`${bob}:laptop01:p`, `${alice}:phone001:newkey`]);
  });
});

describe("a sealed message's own key in its body", () => {
  it("travels in the signed body and comes back; anything that is not a key is dropped", () => {
    const key = "A".repeat(43);
    expect(decodeBody(encodeBody({ text: "hi", files: [], key }))).toEqual({ text: "hi", files: [], key });
    expect(decodeBody(encodeBody({ text: "hi", files: [], key: "short" }))).toEqual({ text: "hi", files: [] });
    expect(encodeBody({ text: "hi", files: [] })).toBe("hi");
  });
});
