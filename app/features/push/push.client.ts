import { api } from "~/lib/api.client";
import { readPushKeys, writePushKeys } from "~/features/push/push-keys";
import { deletePushKeys } from "~/features/push/push-db";
import { forgetPushLearning, pushSupported } from "~/features/push/learning.client";

/**
 * Notifications when ChatCrypt is closed (Web Push): this browser subscribes with its push service
 * under the server's VAPID key and the server keeps the subscription; from then on the page keeps,
 * for the service worker, the keys it needs to open pushed messages (push-keys.ts).
 */
export type PushState = "unsupported" | "off" | "on" | "blocked";

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  return (await navigator.serviceWorker.getRegistration("/")) ?? null;
}

/** How long turning pushes on waits for the service worker to finish installing (it starts after the first load). */
const ACTIVE_WAIT_MS = 30_000;

/**
 * The registration once its worker is active: a push that arrives while the worker is still installing
 * (it fetches the app's files first, a few seconds after the first load) is lost, and browsers refuse to
 * subscribe before then.
 */
async function activeRegistration(): Promise<ServiceWorkerRegistration | null> {
  const reg = await registration();
  if (!reg || reg.active) return reg;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ACTIVE_WAIT_MS)));
  const ready = await Promise.race([navigator.serviceWorker.ready, late]);
  clearTimeout(timer);
  if (!ready) throw new Error("ChatCrypt is still getting ready on this device. Please try again in a minute.");
  return ready;
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
  const reg = await activeRegistration();
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

/**
 * Saves this browser's subscription again under the page's current session when pushes are on here
 * (a subscription goes with the session that saved it: ADR 0024's addendum): at every start, and when
 * the session was renewed (a password change on this device ends the old one). Never throws.
 */
export async function keepPushLinked(userId: string): Promise<void> {
  try {
    if ((await pushState(userId)) !== "on") return;
    const subscription = await (await registration())?.pushManager.getSubscription();
    if (!subscription) return;
    const { endpoint, keys } = subscription.toJSON();
    await api("/api/push", { endpoint, keys });
  } catch (error) {
    console.warn("Notifications while ChatCrypt is closed could not be kept on", error);
  }
}
