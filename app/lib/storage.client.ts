import type { StoredKeyBundle } from "~/crypto";

// Browser storage names are part of the product (spec §3): chatcrypt_keys, channel_password_{id}, pendingInvite.
const KEYS = "chatcrypt_keys";
const PENDING_INVITE = "pendingInvite";
const channelPasswordKey = (channelId: string) => `channel_password_${channelId}`;

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

export function removeChannelPassword(channelId: string) {
  localStorage.removeItem(channelPasswordKey(channelId));
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
