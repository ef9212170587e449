import { api } from "~/lib/api.client";
import { deletePushKeys, readPushKeys, writePushKeys, type PushKeys } from "~/features/push/push-keys";

/**
 * Notifications when ChatCrypt is closed (Web Push): this browser subscribes with its push service
 * under the server's VAPID key and the server keeps the subscription; from then on the page keeps,
 * for the service worker, the keys it needs to open pushed messages (push-keys.ts).
 */
export type PushState = "unsupported" | "off" | "on" | "blocked";

export const pushSupported = () =>
  typeof navigator !== "undefined" &&
  "serviceWorker" in navigator &&
  typeof window !== "undefined" &&
  "PushManager" in window &&
  "Notification" in window;

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  return (await navigator.serviceWorker.getRegistration("/")) ?? null;
}

/** Whether this browser gets pushes for the signed-in user. */
export async function pushState(userId: string): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  const subscription = await (await registration())?.pushManager.getSubscription();
  return subscription && (await readPushKeys())?.userId === userId ? "on" : "off";
}

/** Turns pushes on for this browser; throws an Error whose message the page shows. */
export async function enablePush(userId: string): Promise<void> {
  const reg = await registration();
  if (!reg) throw new Error("This browser cannot receive notifications while ChatCrypt is closed.");
  if ((await Notification.requestPermission()) !== "granted")
    throw new Error("Notifications are blocked for this site in the browser's settings.");
  const { publicKey } = await api<{ publicKey: string }>("/api/push");
  let subscription: PushSubscription;
  try {
    subscription =
      (await reg.pushManager.getSubscription()) ??
      (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }));
  } catch {
    throw new Error("This browser could not reach its push service. Please try again later.");
  }
  const { endpoint, keys } = subscription.toJSON();
  await writePushKeys({ userId, channels: {}, verify: {} });
  forgetPushLearning();
  await api("/api/push", { endpoint, keys });
}

/** Turns pushes off for this browser (also at sign-out); never throws. */
export async function disablePush(): Promise<void> {
  try {
    const subscription = await (await registration())?.pushManager.getSubscription();
    if (subscription) {
      await api("/api/push/unsubscribe", { endpoint: subscription.endpoint }).catch(() => undefined);
      await subscription.unsubscribe().catch(() => undefined);
    }
  } finally {
    await deletePushKeys();
  }
}

// Keys learnt while the page opens messages, written in one go a moment later.
let pending: { userId: string; channels: Record<string, CryptoKey>; verify: Record<string, CryptoKey> } | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
const known = new Set<string>();

async function flush() {
  const batch = pending;
  pending = null;
  if (!batch) return;
  const kept: PushKeys | null = await readPushKeys();
  if (kept?.userId !== batch.userId) return; // pushes are off here for this user
  await writePushKeys({
    userId: batch.userId,
    channels: { ...kept.channels, ...batch.channels },
    verify: { ...kept.verify, ...batch.verify },
  });
}

/** Remembers a classic channel's key and a sender's verifying key for the service worker (when pushes are on here). */
export function rememberForPush(userId: string, channelId: string, key: CryptoKey, senderId: string, verifyKey: CryptoKey) {
  if (!pushSupported()) return;
  const tag = `${userId}:${channelId}:${senderId}`;
  if (known.has(tag)) return;
  known.add(tag);
  if (pending?.userId !== userId) pending = { userId, channels: {}, verify: {} };
  pending.channels[channelId] = key;
  pending.verify[senderId] = verifyKey;
  clearTimeout(timer);
  timer = setTimeout(() => void flush().catch((error) => console.warn("Keys for notifications were not kept", error)), 500);
}

/** Forgets what was learnt (pushes turned on again later relearn it). */
export function forgetPushLearning() {
  known.clear();
}
