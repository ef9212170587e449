import type { Locator, Page } from "@playwright/test";
import { expect, newUser, signUp, test } from "./fixtures";

// A phone, 390x844: the system's Back closes an open dialog and nothing else (it changed the address
// under Notification Settings, and closed Account and the conversation with it); a press beside a form
// something was typed into keeps it (Create Channel lost the name typed).

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

const tap = (target: Locator) => target.tap();

async function fromMenu(page: Page, item: string, dialogName: string) {
  await tap(page.getByRole("button", { name: "Menu", exact: true }));
  await tap(page.getByRole("menuitem", { name: item }));
  const dialog = page.getByRole("dialog", { name: dialogName });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("on a phone, Back closes the open dialog and stays in the conversation; a press beside a typed form keeps it", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, ...PHONE });
  const page = await context.newPage();
  await signUp(page, newUser("dana"));

  // At no conversation, Back closing a dialog is not a Back to the channel list: the drawer stays closed.
  const toggle = page.getByRole("button", { name: "Show channels" });
  const home = await fromMenu(page, "Set World Clock", "World Clock Settings");
  await page.goBack();
  await expect(home).toBeHidden();
  await expect(page).toHaveURL(/\/$/);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");

  // Create Channel: a press on the backdrop closes it while empty, and keeps it and the name once typed.
  const openCreate = async () => {
    if ((await toggle.getAttribute("aria-expanded")) !== "true") await tap(toggle);
    await tap(page.getByRole("button", { name: "Create", exact: true }));
    const dialog = page.getByRole("dialog", { name: "Create Channel" });
    await expect(dialog).toBeVisible();
    return dialog;
  };
  // (a press on the backdrop, below the dialog's card)
  const beside = () => page.touchscreen.tap(195, PHONE.viewport.height - 20);
  let create = await openCreate();
  await beside();
  await expect(create).toBeHidden();
  // (typed, then emptied again: nothing to lose, the backdrop closes it)
  create = await openCreate();
  await create.getByLabel("Channel Name").fill("Field Notes");
  await create.getByLabel("Channel Name").fill("");
  await beside();
  await expect(create).toBeHidden();
  create = await openCreate();
  await create.getByLabel("Channel Name").fill("Field Notes");
  await beside();
  await expect(create).toBeVisible();
  await expect(create.getByLabel("Channel Name")).toHaveValue("Field Notes");
  await create.getByLabel("Password").fill(`phone-dialogs-${Date.now()}`);
  await tap(create.getByRole("button", { name: "Create", exact: true }));
  await expect(create).toBeHidden({ timeout: 20_000 });
  const heading = page.getByRole("heading", { name: "# Field Notes" });
  await expect(heading).toBeVisible();
  await expect(page).toHaveURL(/\/c\/[0-9a-f-]{36}$/);
  const conversation = page.url();

  // Back with a dialog open closes the dialog only: the conversation and its address stay.
  for (const [item, name] of [
    ["Notification settings", "Notification Settings"],
    ["Account", "Account"],
    ["Set World Clock", "World Clock Settings"],
  ] as const) {
    const dialog = await fromMenu(page, item, name);
    await page.goBack();
    await expect(dialog).toBeHidden();
    await expect(heading).toBeVisible();
    expect(page.url(), `Back from ${name}`).toBe(conversation);
  }

  // Back with the channel drawer open closes the drawer only (it went back to the conversation before,
  // or to no conversation, and left the drawer open); closed by choosing a conversation in it, it takes
  // its entry with it (the last Back below leaves the conversation).
  await tap(toggle);
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await page.goBack();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(heading).toBeVisible();
  expect(page.url(), "Back from the drawer").toBe(conversation);
  await tap(toggle);
  await tap(page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "# Field Notes", exact: true }));
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(page).toHaveURL(conversation);
  // Another conversation chosen in the drawer: Back returns to the one before, Forward to it again.
  create = await openCreate();
  await create.getByLabel("Channel Name").fill("Other Notes");
  await create.getByLabel("Password").fill(`phone-dialogs-${Date.now()}`);
  await tap(create.getByRole("button", { name: "Create", exact: true }));
  await expect(page.getByRole("heading", { name: "# Other Notes" })).toBeVisible({ timeout: 20_000 });
  const other = page.url();
  await tap(toggle);
  await tap(page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "# Field Notes", exact: true }));
  await expect(heading).toBeVisible();
  await expect(page).toHaveURL(conversation);
  await page.goBack();
  await expect(page.getByRole("heading", { name: "# Other Notes" })).toBeVisible();
  await expect(page).toHaveURL(other);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await page.goForward();
  await expect(heading).toBeVisible();
  await expect(page).toHaveURL(conversation);

  // Closed its own way (Cancel), a dialog takes its history entry with it: the next Back leaves the
  // conversation, as it would have without the dialog.
  const clock = await fromMenu(page, "Set World Clock", "World Clock Settings");
  await tap(clock.getByRole("button", { name: "Cancel" }));
  await expect(clock).toBeHidden();
  await expect(page).toHaveURL(conversation);
  await page.goBack();
  await expect(page).toHaveURL(other);
  await expect(heading).toBeHidden();

  // A menu closes with Back too, and the conversation stays (Back went to the conversation before, the
  // menu still open over it and acting on it).
  const more = page.getByRole("button", { name: "More" });
  await tap(more);
  const menu = page.getByRole("menu", { name: "Channel actions" });
  await expect(menu).toBeVisible();
  await page.goBack();
  await expect(menu).toBeHidden();
  await expect(page).toHaveURL(other);
  await expect(more).toBeFocused();
  // Forward after that brings nothing back and costs no Back: the next Back leaves the conversation (it
  // changed nothing: Forward had gone to the menu's entry).
  await page.goForward();
  await expect.poll(() => page.evaluate(() => (history.state as { chatcryptPanel?: string } | null)?.chatcryptPanel ?? null)).toBeNull();
  await expect(menu).toBeHidden();
  await expect(page).toHaveURL(other);
  await page.goBack();
  await expect(heading).toBeVisible();
  await expect(page).toHaveURL(conversation);
  await context.close();
});
