import { describe, expect, it } from "vitest";
import { deriveVaultKey, generateKeyBundle } from "../../app/crypto";
import { addProposal, commit, epochOf, join, newGroup, newKeyPackage, receive, seal } from "../../app/conversation/mls/mls";
import { copyState, openState, sealState } from "../../app/conversation/mls/state";

const text = (s: string) => new TextEncoder().encode(s);
const read = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

async function vault() {
  const bundle = await generateKeyBundle();
  return deriveVaultKey(bundle.ecdhPrivateKey, bundle.ecdhPublicKey, "sealed");
}

async function twoMembers() {
  const aliceDevice = await newKeyPackage("alice:1");
  const bobDevice = await newKeyPackage("bob:1");
  const added = await commit(await newGroup("sealed-store", aliceDevice), [addProposal(bobDevice.publicPackage)]);
  return { alice: added.state, bob: await join(added.welcome!, bobDevice) };
}

describe("sealed channels: the device's stored MLS state", () => {
  it("a state sealed and opened again keeps working: it decrypts the next message and follows the next commit", async () => {
    const key = await vault();
    let { alice, bob } = await twoMembers();
    const stored = await sealState(key, "bob", "chan1", bob);
    expect(stored).not.toContain("sealed-store");
    bob = await openState(key, "bob", "chan1", stored);

    const sent = await seal(alice, text("after reload"));
    alice = sent.state;
    const got = await receive(bob, sent.message);
    expect(read(got.plaintext)).toBe("after reload");

    const rekey = await commit(alice);
    bob = (await receive(await openState(key, "bob", "chan1", await sealState(key, "bob", "chan1", got.state)), rekey.commit)).state;
    expect(epochOf(bob)).toBe(epochOf(rekey.state));
  });

  it("refuses a state bound to another channel or user, altered, or sealed under another key or purpose", async () => {
    const bundle = await generateKeyBundle();
    const key = await deriveVaultKey(bundle.ecdhPrivateKey, bundle.ecdhPublicKey, "sealed");
    const keyring = await deriveVaultKey(bundle.ecdhPrivateKey, bundle.ecdhPublicKey, "keyring");
    const { bob } = await twoMembers();
    const stored = await sealState(key, "bob", "chan1", bob);
    await expect(openState(key, "bob", "chan2", stored)).rejects.toThrow(/authentication failed/);
    await expect(openState(key, "carol", "chan1", stored)).rejects.toThrow(/authentication failed/);
    await expect(openState(await vault(), "bob", "chan1", stored)).rejects.toThrow(/authentication failed/);
    await expect(openState(keyring, "bob", "chan1", stored)).rejects.toThrow(/authentication failed/);
    const bytes = Buffer.from(stored, "base64");
    bytes[bytes.length - 20] ^= 1;
    await expect(openState(key, "bob", "chan1", bytes.toString("base64"))).rejects.toThrow(/authentication failed/);
  });

  it("stores no receiver secrets of past epochs: a stored state decrypts nothing of the epoch before", async () => {
    const key = await vault();
    let { alice, bob } = await twoMembers();
    const old = await seal(alice, text("epoch 1"));
    alice = old.state;
    const rekey = await commit(alice);
    bob = (await receive(bob, rekey.commit)).state;
    const reopened = await openState(key, "bob", "chan1", await sealState(key, "bob", "chan1", bob));
    expect(reopened.historicalReceiverData.size).toBe(0);
    await expect(receive(reopened, old.message)).rejects.toThrow();
  });

  it("a commit made from a copy leaves the state able to take another member's commit for the same epoch", async () => {
    const { alice, bob } = await twoMembers();
    await commit(copyState(bob)); // Bob's commit, refused by the delivery service as stale
    const winner = await commit(alice);
    const after = await receive(bob, winner.commit);
    expect(epochOf(after.state)).toBe(epochOf(winner.state));
  });
});
