import type { StoredKeyBundle } from "~/crypto";

// Browser storage names are part of the product (spec §3): chatcrypt_keys, channel_password_{id}, pendingInvite.
const KEYS = "chatcrypt_keys";
const PENDING_INVITE = "pendingInvite";
const SESSION_ENDED = "sessionEnded";
const CHANNEL_PASSWORD_PREFIX = "channel_password_";
const CHANNEL_ITERATIONS_PREFIX = "channel_kdf_iterations_";
const channelPasswordKey = (channelId: string) => `${CHANNEL_PASSWORD_PREFIX}${channelId}`;
const channelIterationsKey = (channelId: string) => `${CHANNEL_ITERATIONS_PREFIX}${channelId}`;

export type LocalKeyBundle = StoredKeyBundle & { userId: string };

/** One JSON entry of a browser storage: read (null when missing, unreadable or not valid), written, removed. */
export function jsonEntry<T>(storage: () => Storage, name: string, valid: (value: T) => boolean) {
  return {
    get(): T | null {
      try {
        const raw = storage().getItem(name);
        const parsed = raw ? (JSON.parse(raw) as T) : null;
        return parsed && valid(parsed) ? parsed : null;
      } catch {
        return null;
      }
    },
    set: (value: T) => storage().setItem(name, JSON.stringify(value)),
    clear: () => storage().removeItem(name),
  };
}

const localKeys = jsonEntry<LocalKeyBundle>(
  () => localStorage,
  KEYS,
  (bundle) => typeof bundle.userId === "string",
);

export function loadLocalKeys(userId: string): LocalKeyBundle | null {
  const bundle = localKeys.get();
  return bundle?.userId === userId ? bundle : null;
}

export const saveLocalKeys = (bundle: LocalKeyBundle) => localKeys.set(bundle);
export const clearLocalKeys = () => localKeys.clear();

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

/** Names of the local storage entries that start with one of the prefixes. */
function namesStartingWith(...prefixes: string[]): string[] {
  const names: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const name = localStorage.key(i);
    if (name && prefixes.some((prefix) => name.startsWith(prefix))) names.push(name);
  }
  return names;
}

/** Ids of the channels whose password this device holds. */
export const cachedChannelIds = () => namesStartingWith(CHANNEL_PASSWORD_PREFIX).map((name) => name.slice(CHANNEL_PASSWORD_PREFIX.length));

/** Sign-out: no channel secret stays on the device. */
export function clearChannelSecrets() {
  for (const name of namesStartingWith(CHANNEL_PASSWORD_PREFIX, CHANNEL_ITERATIONS_PREFIX)) localStorage.removeItem(name);
}

export interface PendingInvite {
  channelId: string;
  encryptedPassword: string;
  /** The channel's name, sealed like the password (newer links). */
  encryptedName?: string;
  /** The invite record the link names (links with limits). */
  inviteId?: string;
  /** Opened by someone already signed in: they are asked before anything is joined. */
  ask?: boolean;
}

const pendingInvite = jsonEntry<PendingInvite>(
  () => sessionStorage,
  PENDING_INVITE,
  (invite) => typeof invite.channelId === "string" && typeof invite.encryptedPassword === "string",
);

export const getPendingInvite = () => pendingInvite.get();
export const setPendingInvite = (invite: PendingInvite) => pendingInvite.set(invite);
export const clearPendingInvite = () => pendingInvite.clear();

/** Why the server ended this tab's session (deactivated, signed out by an administrator), kept until the next sign-in: a reload still says it. */
const sessionEnded = jsonEntry<{ reason: string }>(
  () => sessionStorage,
  SESSION_ENDED,
  (kept) => typeof kept.reason === "string",
);

export const keepSessionEnded = (reason: string) => sessionEnded.set({ reason });
export const sessionEndedKept = () => sessionEnded.get()?.reason ?? null;
export const forgetSessionEnded = () => sessionEnded.clear();
