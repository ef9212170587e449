/**
 * Where this device keeps its sealed channels' MLS state: localStorage, one entry per user and channel,
 * sealed under the user's vault key of purpose "sealed" (state.ts). Loaded only with the sealed module.
 */
import type { ClientState } from "ts-mls";
import { vaultKey } from "~/conversation/keyring/vault.client";
import { openState, sealState } from "./state";
import { stateEntry, unansweredEntry } from "./meta";

const entry = stateEntry;

export async function saveSealedState(userId: string, channelId: string, state: ClientState): Promise<void> {
  const sealed = await sealState(await vaultKey(userId, "sealed"), userId, channelId, state);
  localStorage.setItem(entry(userId, channelId), sealed);
}

/** The stored state, or null when this device has none for the channel. Throws when it was altered. */
export async function loadSealedState(userId: string, channelId: string): Promise<ClientState | null> {
  const sealed = localStorage.getItem(entry(userId, channelId));
  if (sealed === null) return null;
  return openState(await vaultKey(userId, "sealed"), userId, channelId, sealed);
}

export function forgetSealedState(userId: string, channelId: string): void {
  localStorage.removeItem(entry(userId, channelId));
}

/** A commit posted without an answer yet (unanswered.ts): its epoch, its data as posted, the state it makes (sealed). */
export async function saveUnansweredCommit(
  userId: string,
  channelId: string,
  commit: { epoch: number; data: string; state: ClientState },
): Promise<void> {
  const state = await sealState(await vaultKey(userId, "sealed"), userId, channelId, commit.state);
  localStorage.setItem(unansweredEntry(userId, channelId), JSON.stringify({ epoch: commit.epoch, data: commit.data, state }));
}

export async function loadUnansweredCommit(
  userId: string,
  channelId: string,
): Promise<{ epoch: number; data: string; state: ClientState } | null> {
  const kept = localStorage.getItem(unansweredEntry(userId, channelId));
  if (kept === null) return null;
  const { epoch, data, state } = JSON.parse(kept) as { epoch: number; data: string; state: string };
  return { epoch, data, state: await openState(await vaultKey(userId, "sealed"), userId, channelId, state) };
}

export const forgetUnansweredCommit = (userId: string, channelId: string) => localStorage.removeItem(unansweredEntry(userId, channelId));

/** How long a tab waits for another tab of this browser to store its state after a commit it made. */
const STORED_WAIT_MS = 5_000;

/**
 * The state another tab of this browser stored after a commit it made at `before`'s epoch, if it does
 * within STORED_WAIT_MS (else null). The tabs share the device (its leaf and stored state), and a member
 * cannot process its own commit's path: the tab that did not make it goes on from the stored state,
 * instead of joining again as a second leaf of the same device, which the tabs would then remove from
 * each other as this device's earlier leaf (staleLeaves).
 */
export async function storedStateAfter(userId: string, channelId: string, before: ClientState): Promise<ClientState | null> {
  const deadline = Date.now() + STORED_WAIT_MS;
  for (;;) {
    const stored = await loadSealedState(userId, channelId).catch(() => null);
    if (stored && stored.groupContext.epoch > before.groupContext.epoch && stored.privatePath.leafIndex === before.privatePath.leafIndex)
      return stored;
    const left = deadline - Date.now();
    if (left <= 0 || !(await storedByAnotherTab(entry(userId, channelId), left))) return null;
  }
}

/** Resolves true when another tab stores `key` (the "storage" event: only other tabs' writes raise it), false after `withinMs`. */
function storedByAnotherTab(key: string, withinMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (stored: boolean) => {
      clearTimeout(timer);
      window.removeEventListener("storage", onStorage);
      resolve(stored);
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key === key && event.newValue !== null) done(true);
    };
    const timer = setTimeout(() => done(false), withinMs);
    window.addEventListener("storage", onStorage);
  });
}
