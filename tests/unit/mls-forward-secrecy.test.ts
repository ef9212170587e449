import { describe, expect, it } from "vitest";
import { decodeGroupState, encodeGroupState, type ClientState } from "ts-mls";
import {
  CLIENT_CONFIG,
  addProposal,
  commit,
  epochCode,
  epochOf,
  join,
  newGroup,
  newKeyPackage,
  receive,
  removeProposal,
  seal,
} from "../../app/conversation/mls/mls";

const text = (s: string) => new TextEncoder().encode(s);
const read = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

/** The device state as it would be stored (or stolen): encoded and decoded again. */
function capture(state: ClientState): ClientState {
  const decoded = decodeGroupState(encodeGroupState(state), 0);
  if (!decoded) throw new Error("state did not decode");
  return { ...decoded[0], clientConfig: CLIENT_CONFIG };
}

async function twoMembers() {
  const aliceDevice = await newKeyPackage("alice:1");
  const bobDevice = await newKeyPackage("bob:1");
  let alice = await newGroup("sealed-test", aliceDevice);
  const added = await commit(alice, [addProposal(bobDevice.publicPackage)]);
  alice = added.state;
  const bob = await join(added.welcome!, bobDevice);
  return { alice, bob };
}

describe("sealed channels: forward secrecy (ts-mls state)", () => {
  it("a device state captured after epoch N decrypts none of the messages of earlier epochs", async () => {
    let { alice, bob } = await twoMembers();
    const sent: { epoch: bigint; message: Uint8Array }[] = [];
    // Three epochs of traffic, Bob reading along.
    for (let round = 0; round < 3; round++) {
      const first = await seal(alice, text(`round ${round}`));
      alice = first.state;
      sent.push({ epoch: epochOf(alice), message: first.message });
      const got = await receive(bob, first.message);
      bob = got.state;
      expect(read(got.plaintext)).toBe(`round ${round}`);
      const next = await commit(alice);
      alice = next.state;
      bob = (await receive(bob, next.commit)).state;
    }
    expect(epochOf(bob)).toBe(4n);
    // Bob's state now (epoch N = 4) is captured: none of the earlier epochs' messages opens with it.
    const stolen = capture(bob);
    for (const { epoch, message } of sent) {
      expect(epoch).toBeLessThan(epochOf(stolen));
      await expect(receive(stolen, message)).rejects.toThrow();
    }
    // The same captured state does read what is sent in its own epoch (the test can fail).
    const now = await seal(alice, text("current epoch"));
    expect(read((await receive(capture(bob), now.message)).plaintext)).toBe("current epoch");
  });

  it("even a message of epoch N-1 that the device never read is unreadable once it moved to epoch N", async () => {
    let { alice, bob } = await twoMembers();
    const unread = await seal(alice, text("sent before the commit"));
    alice = unread.state;
    const next = await commit(alice);
    alice = next.state;
    bob = (await receive(bob, next.commit)).state;
    await expect(receive(capture(bob), unread.message)).rejects.toThrow();
  });

  it("a removed member's state decrypts nothing sent after its removal", async () => {
    let { alice, bob } = await twoMembers();
    const carolDevice = await newKeyPackage("carol:1");
    const added = await commit(alice, [addProposal(carolDevice.publicPackage)]);
    alice = added.state;
    bob = (await receive(bob, added.commit)).state;
    let carol = await join(added.welcome!, carolDevice);
    const before = await seal(alice, text("carol still reads this"));
    alice = before.state;
    carol = (await receive(carol, before.message)).state;
    const removed = await commit(alice, [removeProposal(2)]);
    alice = removed.state;
    bob = (await receive(bob, removed.commit)).state;
    const after = await seal(alice, text("after carol left"));
    expect(read((await receive(bob, after.message)).plaintext)).toBe("after carol left");
    // Carol's device is handed the removal and what follows: it learns nothing of the new epoch.
    const carolAfter = await receive(carol, removed.commit).then(
      (r) => r.state,
      () => carol,
    );
    await expect(receive(carolAfter, after.message)).rejects.toThrow();
  });
});

describe("sealed channels: epoch authenticator code", () => {
  it("is the same for members in the same epoch and changes with every commit", async () => {
    let { alice, bob } = await twoMembers();
    expect(epochCode(alice)).toMatch(/^\d{5} \d{5}$/);
    expect(epochCode(bob)).toBe(epochCode(alice));
    const before = epochCode(alice);
    const next = await commit(alice);
    alice = next.state;
    expect(epochCode(alice)).not.toBe(before);
    expect(epochCode(bob)).toBe(before);
    bob = (await receive(bob, next.commit)).state;
    expect(epochCode(bob)).toBe(epochCode(alice));
    // Another group in the same epoch number has another code.
    const other = await twoMembers();
    expect(epochOf(other.alice)).toBe(epochOf(bob) - 1n);
    const otherNext = await commit(other.alice);
    expect(epochCode(otherNext.state)).not.toBe(epochCode(bob));
  });
});
