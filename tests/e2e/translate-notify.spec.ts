import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, log, openNotificationSettings, person, recordNotifications, send, waitLive } from "./helpers";

test("Bob turns on Spanish: Alice's English message is translated on his screen only", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `translate-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Translations", password);
  await joinAndOpen(bob.page, channelId, password, "Translations");
  await waitLive(alice.page);

  await bob.page.getByRole("button", { name: "Translate" }).click();
  await bob.page.getByLabel("Translate incoming messages to").selectOption("ES");
  await bob.page.getByRole("button", { name: "Translate messages" }).click();
  await expect(bob.page.getByRole("button", { name: "Translate: ES" })).toBeVisible();
  // The choice made, focus is back on the button (it was left on the page's body).
  await expect(bob.page.getByRole("button", { name: "Translate: ES" })).toBeFocused();

  await send(alice.page, "The cat is on the table.");
  const bobMessage = log(bob.page).getByRole("article").last();
  await expect(bobMessage).toContainText("gato", { timeout: 20_000 });
  await expect(bobMessage.getByText("Translated")).toBeVisible();
  await bobMessage.getByRole("button", { name: "Show original" }).click();
  await expect(bobMessage).toContainText("The cat is on the table.");
  await expect(log(alice.page).getByRole("article").last()).toContainText("The cat is on the table.");
  await expect(log(alice.page).getByText("gato")).toHaveCount(0);

  // The setting is saved in the profile: still on after a reload.
  await bob.page.reload();
  await expect(bob.page.getByRole("button", { name: "# Translations" })).toBeVisible();
  await bob.page.getByRole("button", { name: "# Translations" }).click();
  await expect(log(bob.page).getByRole("article").last()).toContainText("gato", { timeout: 20_000 });

  // A language the engine cannot do is greyed with the reason; the translated text carries its language.
  await expect(bobMessage.locator(".message-text")).toHaveAttribute("lang", "es");
  await bob.page.getByRole("button", { name: "Translate: ES" }).click();
  const select = bob.page.getByLabel("Translate incoming messages to");
  await expect(select).toBeFocused();
  const german = select.locator('option[value="DE"]');
  await expect(german).toBeDisabled();
  await expect(german).toHaveAttribute("aria-disabled", "true");
  await expect(german).toHaveText("German (DE) - Not available on this server");
  await expect(select.locator('option[value="JA"]')).toBeDisabled();
  await expect(select.locator('option[value="PT-BR"]')).toBeEnabled();
  await expect(bob.page.getByText("Greyed languages: not available on this server.")).toBeVisible();
  // Esc closes the popover and gives focus back to its button.
  await bob.page.keyboard.press("Escape");
  await expect(select).toBeHidden();
  await expect(bob.page.getByRole("button", { name: "Translate: ES" })).toBeFocused();
  // Turned off with the keyboard: the popover closes, and focus is on the button again.
  await bob.page.keyboard.press("Enter");
  await bob.page.getByRole("button", { name: "Turn off translation" }).press("Enter");
  await expect(bob.page.getByRole("button", { name: "Translate", exact: true })).toBeFocused();
  await expect(bob.page.getByLabel("Translate incoming messages to")).toBeHidden();
  await alice.context.close();
  await bob.context.close();
});

test("desktop notifications: a mention and a keyword each raise one; own messages none; body cut at 100 characters", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, permissions: ["notifications"] });
  // Record notifications and report the window as unfocused (spec: only then are they shown).
  await recordNotifications(context);
  const page = await context.newPage();
  const { newUser, signUp } = await import("./fixtures");
  const bobUser = newUser("bob");
  await signUp(page, bobUser);

  const password = `notify-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Alerts", password);
  await joinAndOpen(page, channelId, password, "Alerts");
  await waitLive(alice.page);

  await openNotificationSettings(page);
  const dialog = page.getByRole("dialog", { name: "Notification Settings" });
  await expect(dialog.getByText("This browser may show notifications.")).toBeVisible();
  await dialog.getByLabel("Desktop notifications").check();
  await dialog.getByLabel("New keyword").fill("  deploy ");
  await dialog.getByRole("button", { name: "Add keyword" }).click();
  await dialog.getByLabel("New keyword").fill("DEPLOY");
  await dialog.getByRole("button", { name: "Add keyword" }).click();
  await expect(dialog.getByText("That keyword is already in the list.")).toBeVisible();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();

  const shown = () => page.evaluate(() => (window as unknown as { __shown: { title: string; body: string }[] }).__shown);
  const long = `Hey @${bobUser.username}, ${"please review the quarterly numbers before the meeting. ".repeat(4)}`;
  await send(alice.page, long);
  await expect.poll(shown).toHaveLength(1);
  const [mention] = await shown();
  expect(mention.title).toBe(`${alice.user.username} in #Alerts`);
  expect(mention.body).toBe(long.slice(0, 100));

  await send(alice.page, "nothing to see here");
  await send(alice.page, "The Deploy is done");
  await expect.poll(shown).toHaveLength(2);
  expect((await shown())[1].body).toBe("The Deploy is done");

  await send(page, `my own message mentioning @${bobUser.username} and deploy`);
  await expect(log(page).getByText("my own message mentioning")).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(await shown()).toHaveLength(2);
  await alice.context.close();
  await context.close();
});
