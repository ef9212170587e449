import { describe, expect, it } from "vitest";
import { generateKeyBundle } from "../../app/crypto";
import { credentialHolds, deviceCredential, leafOwner } from "../../app/conversation/mls/identity";
import { ciphersuite } from "../../app/conversation/mls/mls";

// Whose device a leaf is (ADR 0015): the credential carries the user's identity-key signature over the
// device's MLS signature public key; members check it against the user's (pinned) identity key.
const enc = (text: string) => new TextEncoder().encode(text);

describe("a device's MLS credential", () => {
  it("holds for the user's key and that signature key only", async () => {
    const [alice, mallory] = await Promise.all([generateKeyBundle(), generateKeyBundle()]);
    const cs = await ciphersuite();
    const [device, other] = await Promise.all([cs.signature.keygen(), cs.signature.keygen()]);
    const owner = { userId: "aliceaaaaaaaaaa", device: "laptop0001" };
    const identity = await deviceCredential(alice.rsaPrivateKey, owner, device.publicKey);
    expect(leafOwner(enc(identity))).toEqual(owner);

    expect(await credentialHolds(enc(identity), device.publicKey, alice.rsaPublicKey)).toBe(true);
    // Another device's signature key under Alice's proof, or the proof checked with someone else's key: refused.
    expect(await credentialHolds(enc(identity), other.publicKey, alice.rsaPublicKey)).toBe(false);
    expect(await credentialHolds(enc(identity), device.publicKey, mallory.rsaPublicKey)).toBe(false);
    // The server names another user or device with Alice's proof: refused.
    const renamed = identity.replace(owner.userId, "bobbbbbbbbbbbbb");
    expect(await credentialHolds(enc(renamed), device.publicKey, alice.rsaPublicKey)).toBe(false);
    const otherDevice = identity.replace(owner.device, "phone00001");
    expect(await credentialHolds(enc(otherDevice), device.publicKey, alice.rsaPublicKey)).toBe(false);
    // A device key signed by Mallory's key is not Alice's device.
    const forged = await deviceCredential(mallory.rsaPrivateKey, owner, device.publicKey);
    expect(await credentialHolds(enc(forged), device.publicKey, alice.rsaPublicKey)).toBe(false);
    // Not one of ours at all.
    expect(leafOwner(enc("just a name"))).toBeNull();
    expect(await credentialHolds(enc("just a name"), device.publicKey, alice.rsaPublicKey)).toBe(false);
  });
});
