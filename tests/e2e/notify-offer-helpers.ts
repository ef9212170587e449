import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, newUser, signUp } from "./fixtures";
import { recordNotifications } from "./helpers";

// The "Turn on notifications" offer (ADR 0067) in the browser tests: colleagues in browsers that have
// not allowed notifications, the permission prompts their pages open, the notifications they show.

type Shown = { title: string; body: string }[];

/** Counts the page's calls to Notification.requestPermission across reloads (sessionStorage "asked"). */
async function countPermissionRequests(context: BrowserContext) {
  await context.addInitScript(() => {
    const ask = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args: Parameters<typeof Notification.requestPermission>) => {
      sessionStorage.setItem("asked", String(Number(sessionStorage.getItem("asked") ?? "0") + 1));
      return ask(...args);
    };
  });
}

export const asked = (page: Page) => page.evaluate(() => Number(sessionStorage.getItem("asked") ?? "0"));
export const shown = (page: Page) => page.evaluate(() => (window as unknown as { __shown: Shown }).__shown);
export const offer = (page: Page) => page.getByRole("region", { name: "Notifications" });
export const turnOn = (page: Page) => offer(page).getByRole("button", { name: "Turn on notifications" });

/** A colleague who signs up through the team's invite link, in a browser that has not allowed notifications. */
export async function colleague(browser: Browser, prefix: string, link: string) {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  await recordNotifications(context);
  await countPermissionRequests(context);
  const page = await context.newPage();
  await page.goto(link);
  await expect(page).not.toHaveURL(/invite=/);
  const user = newUser(prefix);
  await signUp(page, user);
  await expect(page.getByRole("heading", { name: "# Team" })).toBeVisible({ timeout: 30_000 });
  return { context, page, user };
}
