import type { Locator } from "@playwright/test";
import { expect, newUser, signUp, test } from "./fixtures";
import { createChannel, log, person, send, uncovered, waitLive } from "./helpers";

// On a phone, what the user opens or jumps to is on the screen: the conversation a dialog of the
// drawer made (the drawer stayed over it), the message "Jump to message" leads to (the Pinned panel
// stayed over it), and every action of the last message's menu (they were under the composer).
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

test("phone: a conversation made or joined from the drawer, a pinned message jumped to, and the last message's menu are on the screen", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const password = `pr-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Joined Here", password);
  await waitLive(alice.page);
  await send(alice.page, "the pinned one at the top");
  for (let i = 0; i < 20; i++) await send(alice.page, `filler message ${i} with some words to take a line`);

  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, ...PHONE });
  const page = await context.newPage();
  await signUp(page, newUser("bob"));
  const toggle = page.getByRole("button", { name: "Show channels" });
  const fromDrawer = async (button: string, dialogName: string, fill: (dialog: Locator) => Promise<void>, heading: string) => {
    if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.tap();
    await page.getByRole("button", { name: button, exact: true }).tap();
    const dialog = page.getByRole("dialog", { name: dialogName });
    await fill(dialog);
    await expect(dialog).toBeHidden({ timeout: 30_000 });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect.poll(() => uncovered(page.getByRole("heading", { name: heading }))).toBe(true);
    // (focus is not left in the hidden drawer)
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("#channel-sidebar")))).toBe(false);
  };
  await fromDrawer(
    "Create",
    "Create Channel",
    async (dialog) => {
      await dialog.getByLabel("Channel Name").fill("Made On Phone");
      await dialog.getByLabel("Password").fill(`p-${Date.now()}`);
      await dialog.getByRole("button", { name: "Create", exact: true }).tap();
    },
    "# Made On Phone",
  );
  await fromDrawer(
    "Join",
    "Join Channel",
    async (dialog) => {
      await dialog.getByLabel("Channel ID").fill(channelId);
      await dialog.getByLabel("Password").fill(password);
      await dialog.getByRole("button", { name: "Join", exact: true }).tap();
    },
    "# Joined Here",
  );
  await fromDrawer(
    "New message",
    "New message",
    async (dialog) => {
      await dialog.getByRole("checkbox", { name: alice.user.username }).check();
      await dialog.getByRole("button", { name: "Start conversation" }).tap();
    },
    `@ ${alice.user.username}`,
  );

  // The joined channel: the first message pinned, then jumped to from the bottom.
  await page.goto(`/c/${channelId}`);
  await expect(page.getByRole("heading", { name: "# Joined Here" })).toBeVisible({ timeout: 20_000 });
  await expect(log(page).getByText("filler message 19")).toBeVisible({ timeout: 20_000 });
  const pinned = log(page).getByRole("article").filter({ hasText: "the pinned one at the top" });
  await pinned.scrollIntoViewIfNeeded();
  await pinned.getByRole("button", { name: "More actions" }).tap();
  await page
    .getByRole("menu", { name: /More actions for the message from/ })
    .getByRole("menuitem", { name: "Pin message" })
    .tap();
  await expect(pinned.getByText(/Pinned by you/)).toBeVisible();

  // The last message's menu, opened by a long-press: every item reachable as it opens.
  const last = log(page).getByRole("article").last();
  await last.scrollIntoViewIfNeeded();
  await last.locator(".message-text").dispatchEvent("contextmenu");
  const menu = page.getByRole("menu", { name: /More actions for the message from/ });
  await expect(menu).toBeVisible();
  for (const item of await menu.getByRole("menuitem").all()) {
    await item.scrollIntoViewIfNeeded();
    expect(await uncovered(item), await item.innerText()).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();

  await page.getByRole("button", { name: "More", exact: true }).tap();
  await page.getByRole("menu", { name: "Channel actions" }).getByRole("menuitem", { name: "Pinned" }).tap();
  const panel = page.getByRole("complementary", { name: "Pinned" });
  await panel.getByRole("button", { name: "Jump to message" }).tap();
  await expect(panel).toBeHidden();
  await expect.poll(() => uncovered(pinned)).toBe(true);

  // The phone's Back closes the full-screen Members panel, as it does a thread: the conversation stays.
  const address = page.url();
  await page.getByRole("button", { name: "More", exact: true }).tap();
  await page.getByRole("menu", { name: "Channel actions" }).getByRole("menuitem", { name: "Members" }).tap();
  const members = page.getByRole("complementary", { name: "Members" });
  await expect(members).toBeVisible();
  await page.goBack();
  await expect(members).toBeHidden();
  expect(page.url()).toBe(address);
  await expect(page.getByRole("heading", { name: "# Joined Here" })).toBeVisible();
  // Closed with its own Back button, it leaves no entry behind: the phone's Back then leaves the conversation.
  await page.getByRole("button", { name: "More", exact: true }).tap();
  await page.getByRole("menu", { name: "Channel actions" }).getByRole("menuitem", { name: "Members" }).tap();
  await members.getByRole("button", { name: "Back" }).tap();
  await expect(members).toBeHidden();
  await page.goBack();
  await expect(page).not.toHaveURL(address);
  await context.close();
});
