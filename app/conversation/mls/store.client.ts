/**
 * Where this device keeps its sealed channels' MLS state: localStorage, one entry per user and channel,
 * sealed under the user's vault key of purpose "sealed" (state.ts). Loaded only with the sealed module.
 */
import type { ClientState } from "ts-mls";
import { vaultKey } from "~/conversation/keyring/vault.client";
import { openState, sealState } from "./state";

const entry = (userId: string, channelId: string) => `chatcrypt.sealed.${userId}.${channelId}`;

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
