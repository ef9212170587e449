import { describe, expect, it } from "vitest";
import { ECDH_CURVE, newProfileKey, openCard, openProfileKey, sealCard, sealProfileKey } from "~/crypto";
import { checkDisplayName, parseCard } from "~/features/profile-cards/card";

// Profile cards (docs/decisions/0075-profile-cards.md): the profile key sealed between two people's
// identity keys, and the card under it, each bound to whose it is.

// only the identity keys' ECDH halves take part (no RSA key is made: quick also on a busy machine)
const ecdhPair = async () => {
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: ECDH_CURVE }, false, ["deriveBits"]);
  return { ecdhPrivateKey: pair.privateKey, ecdhPublicKey: pair.publicKey };
};

describe("profile card crypto", () => {
  it("a sealed key opens for its reader only, and a card only as its owner's", async () => {
    const [alice, bob, carol] = await Promise.all([ecdhPair(), ecdhPair(), ecdhPair()]);
    const profileKey = await newProfileKey();
    const sealed = await sealProfileKey({
      ecdhPrivateKey: alice.ecdhPrivateKey,
      readerPublicKey: bob.ecdhPublicKey,
      ownerId: "alice",
      readerId: "bob",
      profileKey,
    });
    const open = (reader: typeof bob, readerId: string, ownerId = "alice") =>
      openProfileKey({ ecdhPrivateKey: reader.ecdhPrivateKey, ownerPublicKey: alice.ecdhPublicKey, ownerId, readerId, sealed });
    expect(await open(bob, "bob")).toBe(profileKey);
    await expect(open(carol, "carol")).rejects.toThrow();
    await expect(open(carol, "bob")).rejects.toThrow();
    await expect(open(bob, "bob", "carol")).rejects.toThrow();

    const card = await sealCard(profileKey, "alice", { name: "Alice Liddell" });
    expect(card).not.toContain("Alice");
    expect(await openCard(profileKey, "alice", card)).toEqual({ name: "Alice Liddell" });
    // the server moving Alice's card to Carol's record: it does not open as Carol's
    await expect(openCard(profileKey, "carol", card)).rejects.toThrow();
    await expect(openCard(await newProfileKey(), "alice", card)).rejects.toThrow();
  });

  it("keeps only a sane name and an image photo from an opened card", () => {
    expect(parseCard({ name: "  Alice  ", photo: "data:image/webp;base64,AAAA" })).toEqual({
      name: "Alice",
      photo: "data:image/webp;base64,AAAA",
    });
    expect(parseCard({ name: "x".repeat(65) })).toBeNull();
    expect(parseCard({ photo: "javascript:alert(1)" })).toBeNull();
    expect(parseCard({ photo: "data:image/svg+xml;base64,AAAA" })).toBeNull();
    expect(parseCard("Alice")).toBeNull();
    expect(checkDisplayName("  Alice   Liddell ")).toEqual({ name: "Alice Liddell" });
    expect(checkDisplayName("y".repeat(65))).toEqual({ error: "Display name is too long: at most 64 characters." });
  });
});
