import { describe, expect, it } from "vitest";
import { addProposal, commit, exportSecret, join, newGroup, newKeyPackage, receive } from "../../app/conversation/mls/mls";
import { NAME_EXPORTER_LABEL, openName, sealName, sealedEpoch } from "../../app/features/direct/names";

// A group's name sealed inside its MLS group (ADR 50): every member of the epoch opens it; the next
// epoch's key, another conversation's id, an altered byte or a wrong epoch open nothing.
const group = "5a1d7c3e-8f2b-4c6d-9e0a-1b2c3d4e5f60";
const utf8 = (s: string) => new TextEncoder().encode(s);
const keyOf = (state: Parameters<typeof exportSecret>[0]) => exportSecret(state, NAME_EXPORTER_LABEL, utf8(group), 32);

describe("group names sealed under the group's exporter", () => {
  it("a member of the epoch opens what another sealed; nothing else does", async () => {
    const alice = await newKeyPackage("alice:a");
    const bob = await newKeyPackage("bob:b");
    const created = await newGroup(group, alice);
    const added = await commit(created, [addProposal(bob.publicPackage)]);
    const bobState = await join(added.welcome!, bob);
    const epoch = Number(added.state.groupContext.epoch);

    const sealed = await sealName(await keyOf(added.state), group, epoch, "Trio ✨");
    expect(sealedEpoch(sealed)).toBe(epoch);
    expect(sealed).not.toContain("Trio");
    expect(await openName(await keyOf(bobState), group, epoch, sealed)).toBe("Trio ✨");

    // another conversation's id, another epoch's key, a claimed epoch that is not the one: nothing
    expect(await openName(await keyOf(bobState), "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9", epoch, sealed)).toBeNull();
    const next = await commit(added.state);
    const bobNext = (await receive(bobState, next.commit)).state;
    expect(await openName(await keyOf(bobNext), group, epoch + 1, sealed)).toBeNull();
    expect(await openName(await keyOf(bobState), group, epoch + 1, sealed)).toBeNull();
    // one altered character of the ciphertext
    const at = sealed.length - 5;
    const altered = sealed.slice(0, at) + (sealed[at] === "A" ? "B" : "A") + sealed.slice(at + 1);
    expect(await openName(await keyOf(bobState), group, epoch, altered)).toBeNull();
    // sealed again for the next epoch, it opens there
    const again = await sealName(await keyOf(next.state), group, epoch + 1, "Trio ✨");
    expect(await openName(await keyOf(bobNext), group, epoch + 1, again)).toBe("Trio ✨");
  });

  it("reads the epoch of a sealed name, and nothing from what is not one", () => {
    expect(sealedEpoch("12.abcdefghijklmnopqrstuvwxyz")).toBe(12);
    for (const bad of ["", "x.abc", "12", "12.", "-1.abc", "12.abc def"]) expect(sealedEpoch(bad)).toBeNull();
  });
});
