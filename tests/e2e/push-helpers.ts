import type { BrowserContext, Page } from "@playwright/test";
import type { StandInSubscription } from "../integration/push-service";
import { expect } from "./fixtures";
import { openNotificationSettings } from "./helpers";

const base = () => process.env.E2E_BASE_URL!;
const pushService = process.env.E2E_PUSH_ORIGIN!;

export async function standInSubscription(): Promise<StandInSubscription> {
  return (await (await fetch(`${pushService}/subscriptions`, { method: "POST" })).json()) as StandInSubscription;
}
export const pushesFor = async (id: string) =>
  (await (await fetch(`${pushService}/subscriptions/${id}/pushes`)).json()) as { payload: string }[];

/**
 * Chromium here cannot reach its vendor's push service, so PushManager hands out the stand-in's
 * subscription instead (endpoint and keys as a browser gives them); everything else is the page's own.
 */
export async function usePushServiceStandIn(context: BrowserContext, sub: StandInSubscription) {
  await context.grantPermissions(["notifications"], { origin: base() });
  await context.addInitScript((s: StandInSubscription) => {
    const kept = "stand-in-push-subscription";
    const subscription = () => ({
      endpoint: s.endpoint,
      expirationTime: null,
      toJSON: () => ({ endpoint: s.endpoint, expirationTime: null, keys: s.keys }),
      unsubscribe: () => Promise.resolve(localStorage.removeItem(kept) === undefined),
    });
    PushManager.prototype.subscribe = function () {
      localStorage.setItem(kept, "1");
      return Promise.resolve(subscription() as unknown as PushSubscription);
    };
    PushManager.prototype.getSubscription = function () {
      return Promise.resolve(localStorage.getItem(kept) ? (subscription() as unknown as PushSubscription) : null);
    };
  }, sub);
}

/** Hands a push to the page's service worker through the DevTools protocol. */
export async function deliverPush(page: Page, data: string) {
  const cdp = await page.context().newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (e: { registrations: typeof registrations }) => registrations.push(...e.registrations));
  await cdp.send("ServiceWorker.enable");
  await expect.poll(() => registrations.find((r) => r.scopeURL === `${base()}/` && !r.isDeleted)).toBeTruthy();
  const { registrationId } = registrations.find((r) => r.scopeURL === `${base()}/` && !r.isDeleted)!;
  await cdp.send("ServiceWorker.deliverPushMessage", { origin: base(), registrationId, data });
  await cdp.detach();
}

export const notifications = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration("/");
    return (await registration!.getNotifications()).map((n) => ({ title: n.title, body: n.body }));
  });

/** Turns on "Notify me when ChatCrypt is closed" for this browser (Notification Settings). */
export async function turnOnPush(page: Page) {
  await openNotificationSettings(page);
  const dialog = page.getByRole("dialog", { name: "Notification Settings" });
  const toggle = dialog.getByLabel("Notify me when ChatCrypt is closed");
  // (it turns on at once, once the browser subscribed and the server kept the subscription)
  await toggle.click();
  await expect(toggle).toBeChecked();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}
