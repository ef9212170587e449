/**
 * Keeping a device's MLS state in step with the delivery service (ADR 0015): commits are applied in the
 * service's order (one per epoch), and a commit of this device that lost the race for its epoch (409) is
 * rebuilt on top of the winner's and sent again. Transport-free: the caller passes the delivery calls.
 */
import type { ClientState } from "ts-mls";
import { commit, epochOf, groupInfo, receive, removeProposal } from "./mls";
import { copyState } from "./state";

export interface Delivery {
  /** Sends a commit made at `epoch`; "stale" when another commit was accepted for that epoch first (409). */
  postCommit(epoch: number, commit: Uint8Array, groupInfo: Uint8Array): Promise<"accepted" | "stale">;
  /** The accepted commits made at `epoch` and after, in epoch order. */
  commitsSince(epoch: number): Promise<Uint8Array[]>;
}

/** Applies every accepted commit this state has not seen yet, in order. */
export async function catchUp(state: ClientState, delivery: Delivery): Promise<ClientState> {
  for (const message of await delivery.commitsSince(Number(epochOf(state)))) state = (await receive(state, message)).state;
  return state;
}

/**
 * Commits `proposals()` (built again on each attempt, from the state of the moment) and answers the state
 * after the accepted commit. Up to `attempts` rebases; throws when every attempt was beaten.
 */
export async function commitWithRebase(
  state: ClientState,
  proposals: (state: ClientState) => Parameters<typeof commit>[1],
  delivery: Delivery,
  attempts = 5,
): Promise<{ state: ClientState; welcome?: Uint8Array }> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    state = await catchUp(state, delivery);
    // The commit consumes secrets of the state it is made from: it is made from a copy, so that a
    // refused commit leaves the device's state able to take the winner's commit.
    const made = await commit(copyState(state), proposals(state));
    if ((await delivery.postCommit(Number(epochOf(state)), made.commit, await groupInfo(made.state))) === "accepted") return made;
  }
  throw new Error("commitWithRebase: every attempt lost to another member's commit");
}

/** Every leaf of the group: its index and its basic credential's identity ("" for another kind). */
export function leaves(state: ClientState): { leaf: number; identity: string }[] {
  return state.ratchetTree.flatMap((node, index) => {
    if (node?.nodeType !== "leaf") return [];
    const credential = node.leaf.credential;
    return [{ leaf: index / 2, identity: credential.credentialType === "basic" ? new TextDecoder().decode(credential.identity) : "" }];
  });
}

/**
 * Remove proposals for every leaf of a user's devices (credential identity "<user id>:<device>…"). Built
 * from the state of the moment, as leaf indices can change between attempts.
 */
export function removeUser(state: ClientState, userId: string) {
  return leaves(state)
    .filter((l) => l.identity.startsWith(`${userId}:`))
    .map((l) => removeProposal(l.leaf));
}

/**
 * Remove proposals for the leaves that should not be in the group any more: devices of users who are
 * not members (removed, or left), this device's own earlier leaves (from before a rejoin), and the
 * `retired` ones (the user's devices from before a reset without the recovery key, ADR 0051).
 */
export function staleLeaves(
  state: ClientState,
  memberIds: ReadonlySet<string>,
  self: { userId: string; device: string },
  retired: ReadonlySet<string> = new Set(),
) {
  const ownLeaf = state.privatePath.leafIndex;
  return leaves(state)
    .filter(({ leaf, identity }) => {
      const [userId, device] = identity.split(":");
      if (leaf === ownLeaf || !userId) return false;
      return !memberIds.has(userId) || (userId === self.userId && device === self.device) || retired.has(identity);
    })
    .map((l) => removeProposal(l.leaf));
}
