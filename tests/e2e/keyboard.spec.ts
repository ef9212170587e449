import type { Locator, Page } from "@playwright/test";
import { expect, newUser, test } from "./fixtures";
import { log } from "./helpers";

// Keyboard only: the page is driven with page.keyboard, never a click. After each dialog, popover and
// panel closes, focus must be back on the control that opened it.

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Presses Tab (or Shift+Tab) until the target has focus; every element passed on the way is recorded. */
async function tabTo(page: Page, target: Locator, passed: string[] = [], backwards = false) {
  for (let i = 0; i < 80; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    passed.push(
      await page.evaluate(() => {
        const el = document.activeElement;
        return el ? `${el.tagName.toLowerCase()}${el.closest(".world-clock") ? " in world clock" : ""}` : "none";
      }),
    );
  }
  throw new Error(`Tab never reached ${target}`);
}

async function activate(page: Page, target: Locator, key = "Enter") {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

test("keyboard only: sign up, create a channel, send, and every dialog and popover gives focus back", async ({ page }) => {
  test.setTimeout(120_000);
  const user = newUser("keys");
  await page.goto("/");
  await expect(page.getByText("End-to-end encrypted messaging")).toBeVisible();

  // Sign up.
  await activate(page, page.getByRole("button", { name: "Don't have an account? Sign up" }));
  await tabTo(page, page.getByLabel("Username"));
  await page.keyboard.type(user.username);
  await tabTo(page, page.getByLabel("Email"));
  await page.keyboard.type(user.email);
  await tabTo(page, page.getByLabel("Password"));
  await page.keyboard.type(user.password);
  await page.keyboard.press("Enter");
  await expect(page.getByText(`@${user.username}`)).toBeVisible({ timeout: 20_000 });
  // The recovery key is offered at once, with focus inside; Esc is "Not now", which first says what is
  // lost with focus on going back; Enter goes back, and Esc twice closes.
  const offer = page.getByRole("dialog", { name: "Save your recovery key" });
  await expect(offer.getByRole("button", { name: "Copy" })).toBeFocused();
  await page.keyboard.press("Escape");
  const withoutKey = page.getByRole("dialog", { name: "Continue without a recovery key?" });
  await expect(withoutKey.getByRole("button", { name: "Back to the recovery key" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(offer.getByRole("button", { name: "Not now" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(withoutKey.getByRole("button", { name: "Back to the recovery key" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(offer).toBeHidden();
  await expect(withoutKey).toBeHidden();

  // Create a channel: the dialog takes focus, the text field shows a 2 px ring, focus comes back to Create.
  const create = page.getByRole("button", { name: "Create", exact: true });
  await activate(page, create);
  const dialog = page.getByRole("dialog", { name: "Create Channel" });
  const name = dialog.getByLabel("Channel Name");
  await expect(name).toBeFocused();
  const ring = await name.evaluate((el) => getComputedStyle(el));
  expect(ring.outlineStyle).toBe("solid");
  expect(ring.outlineWidth).toBe("2px");
  await page.keyboard.type("Keyboard");
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("Password")).toBeFocused();
  await page.keyboard.type(`keys-${Date.now()}`);
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "# Keyboard" })).toBeVisible();
  await expect(create).toBeFocused();

  // The skip link is the first tab stop and leads to the message box.
  const skip = page.getByRole("link", { name: "Skip to message composer" });
  await tabTo(page, skip, [], true);
  await expect(skip).toBeInViewport();
  // Nothing comes before it in tab order.
  const first = await page.evaluate(() => {
    const stops = [...document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, [tabindex]")];
    return stops.find((el) => el.tabIndex >= 0 && !el.hasAttribute("disabled"))?.textContent;
  });
  expect(first).toBe("Skip to message composer");
  await page.keyboard.press("Enter");
  const box = page.getByLabel("Message", { exact: true });
  await expect(box).toBeFocused();
  await page.keyboard.type("Typed without a mouse");
  await page.keyboard.press("Enter");
  await expect(log(page).getByText("Typed without a mouse")).toBeVisible();

  // The header menu follows the ARIA menu pattern; the world clock is not a tab stop on the way.
  const passed: string[] = [];
  const menu = page.getByRole("button", { name: "Menu", exact: true });
  await tabTo(page, skip, [], true);
  await tabTo(page, menu, passed);
  expect(passed.filter((entry) => entry.includes("world clock"))).toEqual([]);
  await page.keyboard.press("Enter");
  const worldClock = page.getByRole("menuitem", { name: "Set World Clock" });
  const contacts = page.getByRole("menuitem", { name: "WhatsApp Contacts" });
  const account = page.getByRole("menuitem", { name: "Account" });
  const notificationSettings = page.getByRole("menuitem", { name: "Notification settings" });
  await expect(notificationSettings).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(worldClock).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(contacts).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(account).toBeFocused();
  // (the last item is Account, or Admin console for an administrator)
  const last = page.getByRole("menu", { name: "Menu" }).getByRole("menuitem").last();
  await page.keyboard.press("End");
  await expect(last).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(notificationSettings).toBeFocused();
  await page.keyboard.press("End");
  await expect(last).toBeFocused();
  await page.keyboard.press("Home");
  await expect(notificationSettings).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu", { name: "Menu" })).toBeHidden();
  await expect(menu).toBeFocused();

  // World Clock and WhatsApp contacts from the menu: Esc closes, focus is on Menu again.
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "World Clock Settings" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "World Clock Settings" })).toBeHidden();
  await expect(menu).toBeFocused();
  await page.keyboard.press("Enter");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
  await expect(account).toBeFocused();
  await page.keyboard.press("Enter");
  const accountDialog = page.getByRole("dialog", { name: "Account" });
  await expect(accountDialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(accountDialog).toBeHidden();
  await expect(menu).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  const book = page.getByRole("dialog", { name: "WhatsApp Contacts" });
  await expect(book).toBeVisible();
  await expect(book.getByRole("button", { name: "Cancel" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(book).toBeHidden();
  await expect(menu).toBeFocused();

  // A dialog that closes through its own button gives focus back as well.
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  const clock = page.getByRole("dialog", { name: "World Clock Settings" });
  await activate(page, clock.getByRole("button", { name: "Cancel" }));
  await expect(clock).toBeHidden();
  await expect(menu).toBeFocused();

  // Translate popover: Esc gives focus back to its button.
  const translate = page.getByRole("button", { name: "Translate", exact: true });
  await activate(page, translate);
  await expect(page.getByLabel("Translate incoming messages to")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByLabel("Translate incoming messages to")).toBeHidden();
  await expect(translate).toBeFocused();

  // Notification Settings (per account), Join Channel.
  await activate(page, menu);
  await expect(page.getByRole("menuitem", { name: "Notification settings" })).toBeFocused();
  await page.keyboard.press("Enter");
  const settings = page.getByRole("dialog", { name: "Notification Settings" });
  await expect(settings.getByText("These settings are for your account")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(settings).toBeHidden();

  const join = page.getByRole("button", { name: "Join", exact: true });
  await activate(page, join);
  const joinDialog = page.getByRole("dialog", { name: "Join Channel" });
  await expect(joinDialog).toBeVisible();
  // A modal dialog: the page behind is inert, and Tab stays inside.
  expect(await joinDialog.evaluate((el) => el.matches(":modal"))).toBe(true);
  const behind = await page.evaluate(() => {
    const menuButton = [...document.querySelectorAll<HTMLButtonElement>(".app-header button")].find((b) => b.textContent === "Menu");
    menuButton?.focus();
    return { exists: Boolean(menuButton), focused: document.activeElement === menuButton };
  });
  expect(behind).toEqual({ exists: true, focused: false });
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    expect(await joinDialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Join Channel" })).toBeHidden();
  await expect(join).toBeFocused();

  // Members and News Feed panels: focus moves in, Esc closes, focus comes back.
  // (each an item of "Channel details": its menu takes focus, arrows move, Enter chooses)
  for (const [item, panel, downs] of [
    ["Members", "Members", 0],
    ["News Feed", "News Feed", 2],
  ] as const) {
    const toggle = page.getByRole("button", { name: "Channel details", exact: true });
    await activate(page, toggle);
    const menu = page.getByRole("menu", { name: "Channel details" });
    await expect(menu.getByRole("menuitem").first()).toBeFocused();
    for (let i = 0; i < downs; i++) await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitem", { name: item, exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    const aside = page.getByRole("complementary", { name: panel });
    await expect(aside).toBeVisible();
    expect(await aside.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await expect(aside).toBeHidden();
    await expect(toggle).toBeFocused();
  }

  // A message's actions: Delete opens its confirmation; Esc gives focus back to Delete.
  const message = log(page).getByRole("article").last();
  const remove = message.getByRole("button", { name: "Delete" });
  await activate(page, remove);
  await expect(page.getByRole("dialog", { name: "Delete Message" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Delete Message" })).toBeHidden();
  await expect(remove).toBeFocused();

  // The React menu, a row: it says so, Left and Right move along it (Up and Down too), and Esc goes
  // back to its button.
  const react = message.getByRole("button", { name: "React" });
  await activate(page, react);
  await expect(page.getByRole("menu", { name: "React with" })).toHaveAttribute("aria-orientation", "horizontal");
  const choices = page.getByRole("menu", { name: "React with" }).getByRole("menuitem");
  await expect(choices.first()).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(choices.nth(1)).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(choices.nth(2)).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(choices.nth(1)).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(choices.last()).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(choices.first()).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(react).toBeFocused();

  // Deleting the channel removes the button that opened the dialog: focus stays in the channel list.
  const deleteChannel = page.getByRole("button", { name: "Delete Keyboard" });
  await activate(page, deleteChannel);
  const confirm = page.getByRole("dialog", { name: "Delete Channel" });
  await expect(confirm).toBeVisible();
  await tabTo(page, confirm.getByRole("button", { name: "Delete", exact: true }));
  await page.keyboard.press("Enter");
  await expect(confirm).toBeHidden({ timeout: 20_000 });
  await expect(deleteChannel).toHaveCount(0);
  expect(await page.getByRole("navigation", { name: "Channels" }).evaluate((nav) => nav.contains(document.activeElement))).toBe(true);
});
