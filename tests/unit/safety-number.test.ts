import { describe, expect, it } from "vitest";
import { exportPublicKey, generateKeyBundle, safetyNumber, type IdentityKeys } from "../../app/crypto";

async function identity(userId: string): Promise<IdentityKeys> {
  const bundle = await generateKeyBundle();
  return { userId, ecdhPublicKey: await exportPublicKey(bundle.ecdhPublicKey), rsaPublicKey: await exportPublicKey(bundle.rsaPublicKey) };
}

describe("safety numbers", () => {
  it("are 12 groups of 5 digits, the same on both sides", async () => {
    const [alice, bob] = await Promise.all([identity("aliceaaaaaaaaaa"), identity("bobbbbbbbbbbbbb")]);
    const seenByAlice = await safetyNumber(alice, bob);
    const seenByBob = await safetyNumber(bob, alice);
    expect(seenByAlice).toHaveLength(12);
    for (const group of seenByAlice) expect(group).toMatch(/^\d{5}$/);
    expect(seenByBob).toEqual(seenByAlice);
  });

  it("change when either user's ECDH or signing key changes", async () => {
    const [alice, bob, mallory] = await Promise.all([
      identity("aliceaaaaaaaaaa"),
      identity("bobbbbbbbbbbbbb"),
      identity("bobbbbbbbbbbbbb"),
    ]);
    const genuine = (await safetyNumber(alice, bob)).join(" ");
    const swappedSigning = { ...bob, rsaPublicKey: mallory.rsaPublicKey };
    const swappedEcdh = { ...bob, ecdhPublicKey: mallory.ecdhPublicKey };
    expect((await safetyNumber(alice, swappedSigning)).join(" ")).not.toBe(genuine);
    expect((await safetyNumber(alice, swappedEcdh)).join(" ")).not.toBe(genuine);
    expect((await safetyNumber({ ...alice, rsaPublicKey: mallory.rsaPublicKey }, bob)).join(" ")).not.toBe(genuine);
    // and with a third user it is a different number
    const carol = await identity("carolccccccccccc");
    expect((await safetyNumber(alice, carol)).join(" ")).not.toBe(genuine);
  });

  it("refuse missing keys", async () => {
    const alice = await identity("aliceaaaaaaaaaa");
    await expect(safetyNumber(alice, { userId: "bobbbbbbbbbbbbb", ecdhPublicKey: "", rsaPublicKey: "x" })).rejects.toThrow(
      "safetyNumber: invalid identity keys",
    );
  });
});
