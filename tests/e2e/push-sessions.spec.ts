import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, signIn, test } from "./fixtures";
import { createChannel, joinAndOpen, person, send } from "./helpers";
import { pushesFor, standInSubscription, turnOnPush, usePushServiceStandIn } from "./push-helpers";

// A push subscription goes with the session that saved it (ADR 24's addendum): Bob's laptop, signed out
// from his phone, is forgotten by the server (it went on getting pushes, and its service worker showed
// what it could open); a password changed on the laptop itself keeps the laptop's pushes (its page saves
// the subscription again under the new session).

async function openAccount(page: Page) {
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("menuitem", { name: "Account" }).click();
  return page.getByRole("dialog", { name: "Account" });
}

test("a device signed out from another gets no more pushes; a password changed on the device keeps its own", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const sub = await standInSubscription();
  await usePushServiceStandIn(bob.context, sub);
  await bob.page.reload();
  const password = `push-sessions-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Lost Laptop", password);
  await joinAndOpen(bob.page, channelId, password, "Lost Laptop");
  await turnOnPush(bob.page);
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const subscriptions = () => admin.collection("push_subscriptions").getFullList({ filter: admin.filter("owner = {:id}", { id: bob.id }) });
  await expect.poll(async () => (await subscriptions()).length).toBe(1);

  // A new password on the laptop: its other sessions end, and its own pushes go on.
  await bob.page.keyboard.press("Escape");
  const account = await openAccount(bob.page);
  const section = account.getByRole("region", { name: "Password" });
  const newPassword = `Lost-laptop-${randomBytes(4).toString("hex")}`;
  await section.getByLabel("Current password").fill(bob.user.password);
  await section.getByLabel("New password", { exact: true }).fill(newPassword);
  await section.getByLabel("Confirm new password").fill(newPassword);
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByRole("status")).toHaveText("Your password was changed. Other devices were signed out.", { timeout: 20_000 });
  await expect.poll(async () => (await subscriptions()).length).toBe(1);
  await bob.page.goto("about:blank");
  let sent = 0;
  await expect(async () => {
    await send(alice.page, `@${bob.user.username} still there? ${++sent}`);
    await expect.poll(async () => (await pushesFor(sub.id)).length, { timeout: 3_000 }).toBeGreaterThan(0);
  }).toPass({ timeout: 30_000 });

  // His phone signs the laptop out: the server forgets the laptop's subscription at once.
  const phoneContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: { width: 390, height: 844 } });
  const phone = await phoneContext.newPage();
  await signIn(phone, { email: bob.user.email, password: newPassword });
  await expect(phone.getByRole("button", { name: "Menu" })).toBeVisible({ timeout: 20_000 });
  const devices = (await openAccount(phone)).getByRole("region", { name: "Devices" });
  await devices.getByRole("button", { name: /^Sign out Chrome on Linux, last seen / }).click();
  await expect(devices.getByRole("status")).toHaveText("Chrome on Linux was signed out.");
  expect(await subscriptions()).toEqual([]);

  for (const context of [alice.context, bob.context, phoneContext]) await context.close();
});
