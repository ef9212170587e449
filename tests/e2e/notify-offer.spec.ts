import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, newUser, signUp, test } from "./fixtures";
import {
  copyInviteLink,
  createChannel,
  log,
  message,
  openConversation,
  person,
  recordNotifications,
  send,
  startConversation,
} from "./helpers";

// Notifications that ask (ADR 0067), with the settings `npm start` uses: nothing is offered at sign-up;
// the first direct message offers "Turn on notifications" in a one-line bar, and the browser's
// permission is asked only when that button is clicked. Once allowed, direct messages notify with no
// other setting. "Not now" dismisses the offer for good.

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

const asked = (page: Page) => page.evaluate(() => Number(sessionStorage.getItem("asked") ?? "0"));
const shown = (page: Page) => page.evaluate(() => (window as unknown as { __shown: Shown }).__shown);

/** A colleague who signs up through the team's invite link, in a browser that has not allowed notifications. */
async function colleague(browser: Browser, prefix: string, link: string) {
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

test("the first direct message offers notifications; the permission is asked only on the click; Not now sticks", async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "Team", `team-${Date.now()}`);
  const link = await copyInviteLink(alice.page);
  const bob = await colleague(browser, "bob", link);
  const carol = await colleague(browser, "carol", link);
  const offer = (page: Page) => page.getByRole("region", { name: "Notifications" });
  const turnOn = (page: Page) => offer(page).getByRole("button", { name: "Turn on notifications" });

  // Not at sign-up: the channel's messages do not offer it either.
  await send(alice.page, "welcome to the team");
  await expect(log(bob.page).getByText("welcome to the team")).toBeVisible();
  await expect(log(carol.page).getByText("welcome to the team")).toBeVisible();
  await expect(turnOn(bob.page)).toHaveCount(0);
  expect(await asked(bob.page)).toBe(0);

  // Alice's first direct message to Bob: the bar, one line, and still no prompt.
  await startConversation(alice.page, [bob.user.username]);
  await send(alice.page, "hello Bob, one question");
  await expect(turnOn(bob.page)).toBeVisible({ timeout: 20_000 });
  const bar = await offer(bob.page).boundingBox();
  expect(bar!.height, "the offer is one line").toBeLessThan(48);
  expect(await asked(bob.page)).toBe(0);
  const audit = await new AxeBuilder({ page: bob.page }).include(".notify-offer").analyze();
  expect(audit.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  // The click asks the browser (which grants it), and the bar goes.
  await bob.context.grantPermissions(["notifications"]);
  await turnOn(bob.page).click();
  await expect(offer(bob.page)).toHaveCount(0);
  expect(await asked(bob.page)).toBe(1);

  // Direct messages now notify, with no other setting; the offer does not come back after a reload.
  await bob.page.reload();
  await expect(bob.page.getByRole("heading", { name: "# Team" })).toBeVisible({ timeout: 30_000 });
  await send(alice.page, "are you free at three?");
  await expect
    .poll(() => shown(bob.page), { timeout: 20_000 })
    .toContainEqual({
      title: `${alice.user.username} in @${alice.user.username}`,
      body: "are you free at three?",
    });
  await expect(offer(bob.page)).toHaveCount(0);
  expect(await asked(bob.page)).toBe(1);

  // Carol dismisses it: "Not now" sticks across a reload and a later message; nothing was asked.
  await startConversation(alice.page, [carol.user.username]);
  await send(alice.page, "hi Carol");
  await expect(turnOn(carol.page)).toBeVisible({ timeout: 20_000 });
  await offer(carol.page)
    .getByRole("button", { name: /^Not now/ })
    .click();
  await expect(offer(carol.page)).toHaveCount(0);
  await carol.page.reload();
  await openConversation(carol.page, alice.user.username);
  await send(alice.page, "hi again Carol");
  await expect(message(carol.page, "hi again Carol")).toBeVisible();
  await expect(offer(carol.page)).toHaveCount(0);
  expect(await asked(carol.page)).toBe(0);

  await Promise.all([alice.context.close(), bob.context.close(), carol.context.close()]);
});
