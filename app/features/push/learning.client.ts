import type { PushKeys } from "~/features/push/push-keys";
import { on } from "~/lib/events";

/**
 * What the page learns for the service worker while it opens messages (push.client.ts): each classic
 * channel's key and each sender's verifying key, kept in IndexedDB when pushes are on here. Pushes
 * need the notification permission, so a page without it learns nothing and loads none of the push
 * code (the first load does without it).
 */
export const pushSupported = () =>
  typeof navigator !== "undefined" &&
  "serviceWorker" in navigator &&
  typeof window !== "undefined" &&
  "PushManager" in window &&
  "Notification" in window;

// Keys learnt while the page opens messages, written in one go a moment later.
let pending: { userId: string; channels: Record<string, CryptoKey>; verify: Record<string, CryptoKey> } | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
const known = new Set<string>();
// Sign-out moves it on: a write decided before then does not happen after.
let generation = 0;

async function flush() {
  const batch = pending;
  pending = null;
  if (!batch) return;
  const at = generation;
  const { readPushKeys, writePushKeys } = await import("~/features/push/push-keys");
  const kept: PushKeys | null = await readPushKeys();
  if (at !== generation || kept?.userId !== batch.userId) return; // signed out since, or pushes are off here for this user
  await writePushKeys({
    userId: batch.userId,
    channels: { ...kept.channels, ...batch.channels },
    verify: { ...kept.verify, ...batch.verify },
  });
}

/** Remembers a classic channel's key and a sender's verifying key for the service worker (when pushes can be on here). */
export function rememberForPush(userId: string, channelId: string, key: CryptoKey, senderId: string, verifyKey: CryptoKey) {
  // (seen pairs first: reading the permission is a round trip to the browser, too slow for every message;
  // a page that turns pushes on forgets what it has seen, forgetPushLearning)
  const tag = `${userId}:${channelId}:${senderId}`;
  if (known.has(tag)) return;
  known.add(tag);
  if (!pushSupported() || Notification.permission !== "granted") return;
  if (pending?.userId !== userId) pending = { userId, channels: {}, verify: {} };
  pending.channels[channelId] = key;
  pending.verify[senderId] = verifyKey;
  clearTimeout(timer);
  timer = setTimeout(() => void flush().catch((error) => console.warn("Keys for notifications were not kept", error)), 500);
}

// The conversation core announces each classic message it opens (it imports no feature).
on("message:opened-classic", ({ userId, channelId, key, senderId, verifyKey }) =>
  rememberForPush(userId, channelId, key, senderId, verifyKey),
);

/** Forgets what was learnt (pushes turned on again later relearn it). */
export function forgetPushLearning() {
  known.clear();
}

/** Sign-out: what was learnt and not yet written is dropped, and a write under way stops before it starts. */
export function stopPushLearning() {
  generation++;
  pending = null;
  clearTimeout(timer);
  known.clear();
}
