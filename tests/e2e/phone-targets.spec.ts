import type { Locator } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, newUser, signUp, test } from "./fixtures";
import { log, person, send } from "./helpers";
import { bobOnAPhoneJoins, PHONE } from "./phone-helpers";

// A phone, 390x844, touch: every control on the screen is a finger's size (44 px, the platforms'
// guidance; WCAG 2.5.8 asks 24 at least), in the conversation, the channel drawer, the menu and a
// settings dialog, and the admin console (its section links too); check boxes are 24 px within their
// labels (app/ui/buttons.css).

/** The controls in `area` that show on the screen and are smaller than asked ("name WxH"). */
const smallControls = (area: Locator) =>
  area.evaluate((root) => {
    const shown = (el: HTMLElement) => {
      const r = el.getBoundingClientRect();
      // (on the screen: a skip link waits off it until focused)
      return el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden" && r.right > 0 && r.bottom > 0;
    };
    const size = (el: HTMLElement) => el.getBoundingClientRect();
    const name = (el: HTMLElement) => el.getAttribute("aria-label") || el.textContent?.trim().slice(0, 30) || el.tagName;
    const small: string[] = [];
    for (const el of root.querySelectorAll<HTMLElement>('button, select, textarea, input, [role="menuitem"], a.btn, nav a')) {
      if (!shown(el) || (el instanceof HTMLInputElement && ["file", "hidden"].includes(el.type))) continue;
      const { width, height } = size(el);
      const least = el instanceof HTMLInputElement && ["checkbox", "radio"].includes(el.type) ? 24 : 44;
      const wide = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement ? 0 : least;
      if (height < least - 0.5 || width < wide - 0.5) small.push(`${name(el)} ${Math.round(width)}x${Math.round(height)}`);
    }
    return small;
  });

test("on a phone every control is a finger's size: the conversation, the drawer, the menu, a settings dialog", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const name = `Targets ${Date.now() % 100_000}`;
  const { context, page } = await bobOnAPhoneJoins(browser, alice, name);
  await send(alice.page, "a message with its actions");
  await expect(log(page).getByText("a message with its actions")).toBeVisible({ timeout: 20_000 });

  // the conversation: its header, each message's "More actions", the message box and its tools
  await expect(log(page).getByRole("button", { name: "More actions" }).first()).toBeVisible();
  expect(await smallControls(page.locator("body"))).toEqual([]);
  // the channel drawer
  await page.getByRole("button", { name: "Show channels" }).tap();
  await expect(page.getByRole("button", { name: "New message" })).toBeInViewport();
  expect(await smallControls(page.locator("body"))).toEqual([]);
  await page.keyboard.press("Escape");
  // the menu, and Notification Settings with its check boxes
  await page.getByRole("button", { name: "Menu", exact: true }).tap();
  const menu = page.getByRole("menu", { name: "Menu" });
  expect(await smallControls(menu)).toEqual([]);
  await menu.getByRole("menuitem", { name: "Notification settings" }).tap();
  const dialog = page.getByRole("dialog", { name: "Notification Settings" });
  await expect(dialog).toBeVisible();
  expect(await smallControls(dialog)).toEqual([]);
  await context.close();
});

test("on a phone the admin console's controls are a finger's size: its section links, selects and buttons", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, ...PHONE });
  const page = await context.newPage();
  const owner = newUser("boss");
  await signUp(page, owner);
  const id = await page.evaluate(() => JSON.parse(localStorage.getItem("chatcrypt_keys") ?? "{}").userId as string);
  const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  await su.collection("profiles").update(id, { role: "owner" });
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Admin console", level: 1 })).toBeVisible({ timeout: 20_000 });
  // every section has loaded: the people list with the owner's own role select, the audit log's filters
  await expect(page.getByRole("list", { name: "People" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: /action/i }).first()).toBeVisible();
  expect(await smallControls(page.locator("body"))).toEqual([]);
  await context.close();
});
