/**
 * Tabs of one browser are one device: one leaf in each group and one stored state (store.client.ts),
 * but each tab holds its own state in memory. Two tabs sealing at once would use the same generation of
 * the leaf's sending ratchet, and nobody could read the second message. Sealing holds a lock shared by
 * the browser's tabs, and first moves this tab's sending ratchet past what the other tabs sealed (as they
 * stored it), keeping those generations' keys so this tab still reads the other tabs' messages.
 */
import type { ClientState } from "ts-mls";
import { ratchetUntil } from "ts-mls/secretTree.js";
import { leafToNodeIndex, toLeafIndex } from "ts-mls/treemath.js";
import { CLIENT_CONFIG, ciphersuite } from "./mls";
import { loadSealedState } from "./store.client";

/** Runs `work` while no other tab of this browser seals in this conversation (at once where tabs cannot lock: nothing to share). */
export function sealingAlone<T>(userId: string, channelId: string, work: () => Promise<T>): Promise<T> {
  if (typeof navigator === "undefined" || !navigator.locks) return work();
  return navigator.locks.request(`chatcrypt:sealing:${userId}:${channelId}`, work) as Promise<T>;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/**
 * `state` with its own leaf's sending ratchet moved to where another tab's stored state of the same
 * group, epoch and leaf has it; `state` itself when no other tab sealed further. The generations
 * skipped stay as unused keys (up to the retention's number), to open the other tab's messages.
 */
export async function pastOtherTabs(userId: string, channelId: string, state: ClientState): Promise<ClientState> {
  const stored = await loadSealedState(userId, channelId).catch(() => null);
  const leaf = state.privatePath.leafIndex;
  if (
    !stored ||
    stored.privatePath.leafIndex !== leaf ||
    stored.groupContext.epoch !== state.groupContext.epoch ||
    !sameBytes(stored.groupContext.groupId, state.groupContext.groupId)
  )
    return state;
  const index = leafToNodeIndex(toLeafIndex(leaf));
  const ours = state.secretTree[index];
  const theirs = stored.secretTree[index];
  if (!ours || !theirs || theirs.application.generation <= ours.application.generation) return state;
  const [application] = await ratchetUntil(
    ours.application,
    theirs.application.generation,
    CLIENT_CONFIG.keyRetentionConfig,
    (await ciphersuite()).kdf,
  );
  // (the same chain: else the stored state is not this tab's group after all, and is left alone)
  if (!sameBytes(application.secret, theirs.application.secret)) return state;
  const secretTree = [...state.secretTree];
  secretTree[index] = { ...ours, application };
  return { ...state, secretTree };
}
