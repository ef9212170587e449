import type { StoredKeyBundle } from "~/crypto";

// Browser storage names are part of the product (spec §3): chatcrypt_keys, channel_password_{id}, pendingInvite.
const KEYS = "chatcrypt_keys";
const PENDING_INVITE = "pendingInvite";
const CHANNEL_PASSWORD_PREFIX = "channel_password_";
const CHANNEL_ITERATIONS_PREFIX = "channel_kdf_iterations_";
const channelPasswordKey = (channelId: string) => `${CHANNEL_PASSWORD_PREFIX}${channelId}`;
const channelIterationsKey = (channelId: string) => `${CHANNEL_ITERATIONS_PREFIX}${channelId}`;

export type LocalKeyBundle = StoredKeyBundle & { userId: string };

export function loadLocalKeys(userId: string): LocalKeyBundle | null {
  try {
    const raw = localStorage.getItem(KEYS);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as LocalKeyBundle;
    return parsed && parsed.userId === userId ? parsed : null;
  } catch {
    return null;
  }
}

export function saveLocalKeys(bundle: LocalKeyBundle) {
  localStorage.setItem(KEYS, JSON.stringify(bundle));
}

export function clearLocalKeys() {
  localStorage.removeItem(KEYS);
}

export function getChannelPassword(channelId: string): string | null {
  return localStorage.getItem(channelPasswordKey(channelId));
}

export function setChannelPassword(channelId: string, password: string) {
  localStorage.setItem(channelPasswordKey(channelId), password);
}

/** The PBKDF2 count this device remembered for a channel at create or join (never taken lower from the server). */
export function getChannelIterations(channelId: string): number | null {
  const value = Number(localStorage.getItem(channelIterationsKey(channelId)));
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** The channel's password and PBKDF2 count, cached on this device (the keyring holds them for every device). */
export function setChannelSecret(channelId: string, password: string, iterations: number) {
  setChannelPassword(channelId, password);
  localStorage.setItem(channelIterationsKey(channelId), String(iterations));
}

export function removeChannelPassword(channelId: string) {
  localStorage.removeItem(channelPasswordKey(channelId));
  localStorage.removeItem(channelIterationsKey(channelId));
}

/** Ids of the channels whose password this device holds. */
export function cachedChannelIds(): string[] {
  const ids: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const name = localStorage.key(i);
    if (name?.startsWith(CHANNEL_PASSWORD_PREFIX)) ids.push(name.slice(CHANNEL_PASSWORD_PREFIX.length));
  }
  return ids;
}

/** Sign-out: no channel secret stays on the device. */
export function clearChannelSecrets() {
  const names: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const name = localStorage.key(i);
    if (name?.startsWith(CHANNEL_PASSWORD_PREFIX) || name?.startsWith(CHANNEL_ITERATIONS_PREFIX)) names.push(name);
  }
  for (const name of names) localStorage.removeItem(name);
}

export interface PendingInvite {
  channelId: string;
  encryptedPassword: string;
}

export function getPendingInvite(): PendingInvite | null {
  try {
    const raw = sessionStorage.getItem(PENDING_INVITE);
    const parsed = raw ? (JSON.parse(raw) as PendingInvite) : null;
    return parsed && typeof parsed.channelId === "string" && typeof parsed.encryptedPassword === "string" ? parsed : null;
  } catch {
    return null;
  }
}

export function setPendingInvite(invite: PendingInvite) {
  sessionStorage.setItem(PENDING_INVITE, JSON.stringify(invite));
}

export function clearPendingInvite() {
  sessionStorage.removeItem(PENDING_INVITE);
}
