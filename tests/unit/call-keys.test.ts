import { describe, expect, it } from "vitest";
import { deriveCallKey, deriveChannelSecrets } from "../../app/crypto";
import { addProposal, commit, exportSecret, join, newGroup, newKeyPackage, receive, removeProposal } from "../../app/conversation/mls/mls";

// Call keys (ADR 30): the same on every member's device, different for every call, never the
// conversation's own key; in MLS a new epoch (someone removed) gives a key the removed one cannot make.
const FAST = 1_000;
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const utf8 = (s: string) => new TextEncoder().encode(s);

describe("classic channels: call key from the channel password and the call id", () => {
  it("members with the password derive the same 256-bit key for a call, another for another call", async () => {
    const channel = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";
    const alice = await deriveChannelSecrets("team pw", channel, FAST);
    const bob = await deriveChannelSecrets("team pw", channel, FAST);
    const first = await deriveCallKey(alice.callBase, "RM_first");
    expect(first).toHaveLength(32);
    expect(hex(await deriveCallKey(bob.callBase, "RM_first"))).toBe(hex(first));
    expect(hex(await deriveCallKey(alice.callBase, "RM_second"))).not.toBe(hex(first));
  });

  it("another password, or another channel with the same password, gives another key", async () => {
    const channel = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";
    const key = await deriveCallKey((await deriveChannelSecrets("team pw", channel, FAST)).callBase, "RM_x");
    const wrong = await deriveCallKey((await deriveChannelSecrets("other pw", channel, FAST)).callBase, "RM_x");
    const elsewhere = await deriveCallKey(
      (await deriveChannelSecrets("team pw", "9f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9", FAST)).callBase,
      "RM_x",
    );
    expect(hex(wrong)).not.toBe(hex(key));
    expect(hex(elsewhere)).not.toBe(hex(key));
    await expect(deriveCallKey((await deriveChannelSecrets("team pw", channel, FAST)).callBase, "")).rejects.toThrow("callId is required");
  });
});

describe("MLS conversations: call key from the exporter secret of the epoch", () => {
  it("every member of the epoch derives the same key; after a member is removed, the new epoch's key differs and they cannot follow", async () => {
    const devices = await Promise.all(["alice:1", "bob:1", "carol:1"].map((id) => newKeyPackage(id)));
    let alice = await newGroup("call-test", devices[0]);
    const added = await commit(alice, [addProposal(devices[1].publicPackage), addProposal(devices[2].publicPackage)]);
    alice = added.state;
    let bob = await join(added.welcome!, devices[1]);
    const carol = await join(added.welcome!, devices[2]);
    const key = (state: typeof alice) => exportSecret(state, "chatcrypt call", utf8("RM_call"), 32);
    const before = hex(await key(alice));
    expect(hex(await key(bob))).toBe(before);
    expect(hex(await key(carol))).toBe(before);
    expect(hex(await exportSecret(alice, "chatcrypt call", utf8("RM_other"), 32))).not.toBe(before);

    // Carol is removed: Alice and Bob move to the next epoch and share a new key ...
    const removal = await commit(alice, [removeProposal(2)]);
    alice = removal.state;
    bob = (await receive(bob, removal.commit)).state;
    const after = hex(await key(alice));
    expect(after).not.toBe(before);
    expect(hex(await key(bob))).toBe(after);
    // ... which Carol, who processes the commit that removes her, cannot derive: she is out of the group.
    const carolAfter = await receive(carol, removal.commit);
    expect(carolAfter.state.groupActiveState.kind).toBe("removedFromGroup");
    expect(hex(await key(carol))).not.toBe(after);
  });
});
