import { describe, expect, it } from "vitest";
import { commit } from "../../app/conversation/mls/mls";
import { departedLeaves } from "../../app/conversation/mls/roster";
import { leaves } from "../../app/conversation/mls/sync";
import { groupOf } from "./mls-group-of";

// A direct conversation's list (ADR 19): when someone who left is added again, the devices they left
// with (still in the group until a participant's page removes them) go first, so that nothing sealed
// before they accept reaches those devices.
const alice = "aliceaaaaaaaaaa";
const bob = "bobbbbbbbbbbbbb";
const carol = "carolcccccccccc";

const groupState = async (identities: string[]) => (await groupOf(identities)).creator;

const removed = (proposals: ReturnType<typeof departedLeaves>) =>
  proposals.map((p) => (p.proposalType === "remove" ? p.remove.removed : -1)).sort();

describe("leaves of someone added again after leaving", () => {
  it("are removed first: every device they left with, and only theirs", async () => {
    const state = await groupState([`${alice}:laptop01:p`, `${bob}:laptop01:p`, `${bob}:phone001:p`, `${carol}:laptop01:p`]);
    // Bob left (off the list); Carol is on it.
    expect(removed(departedLeaves(state, [alice, carol], [bob]))).toEqual([1, 2]);
    // Committed, the group holds none of Bob's devices: the list can name him again.
    const after = await commit(state, departedLeaves(state, [alice, carol], [bob]));
    expect(leaves(after.state).map((l) => l.identity.split(":")[0])).toEqual([alice, carol]);
    expect(departedLeaves(after.state, [alice, carol], [bob])).toEqual([]);
  });

  it("asks for nothing when those added have no device in the group, or never left the list", async () => {
    const state = await groupState([`${alice}:laptop01:p`, `${bob}:laptop01:p`]);
    expect(departedLeaves(state, [alice, bob], [bob])).toEqual([]);
    expect(departedLeaves(state, [alice], [carol])).toEqual([]);
    // Someone else off the list (healing's business, not this change's) stays for now.
    expect(departedLeaves(state, [alice], [carol, alice])).toEqual([]);
  });
});
