import type { Locator, Page } from "@playwright/test";
import { expect, newUser, notNowRecoveryKey, signOut, test } from "./fixtures";
import { copyInviteLink, createChannel, log, person, send, uncovered, waitLive } from "./helpers";
import { staysAbsent } from "./stays-absent";

// A phone: 390x844, touch, no hover. Every step is done with controls that are on the screen, and the
// page never scrolls sideways.
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

async function noSideways(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, "the page scrolls sideways").toBeLessThanOrEqual(client);
}

/**
 * Taps a control after checking that it lies inside the screen (once a drawer sliding in has come to
 * rest: a control of the drawer just opened is still partly off the screen while it slides).
 */
async function tap(control: Locator) {
  await control.scrollIntoViewIfNeeded();
  const inside = async () => {
    const box = await control.boundingBox();
    if (!box) return "no box";
    const { width, height } = PHONE.viewport;
    return box.x >= 0 && box.x + box.width <= width + 0.5 && box.y >= 0 && box.y + box.height <= height + 0.5
      ? "inside the screen"
      : `at ${JSON.stringify(box)}`;
  };
  await expect.poll(inside, { message: "the control lies inside the screen" }).toBe("inside the screen");
  await control.tap();
}

test("on a phone: invited, sign up, send, leave and sign out, all on the screen", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const name = `Phone Room ${Date.now() % 100000}`;
  await createChannel(alice.page, name, `phone-${Date.now()}`);
  const link = await copyInviteLink(alice.page);
  await waitLive(alice.page);

  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, ...PHONE });
  const page = await context.newPage();
  await page.goto(link);

  // The invite opens Sign Up, saying where it leads; the password rule shows before submitting.
  await expect(page.getByRole("heading", { name: "Sign Up" })).toBeVisible();
  await expect(page.getByText(`You have been invited to #${name}`)).toBeVisible();
  await expect(page.getByText("At least 8 characters.")).toBeVisible();
  await noSideways(page);
  // (a username of the longest kind: 32 characters)
  const carol = { ...newUser("carol") };
  carol.username = carol.username.padEnd(32, "x");
  await page.getByLabel("Username").fill(carol.username);
  await page.getByLabel("Email").fill(carol.email);
  await page.getByLabel("Password").fill(carol.password);
  await tap(page.getByRole("button", { name: "Sign Up", exact: true }));
  await notNowRecoveryKey(page);

  // Joined on arrival; Alice's page says so.
  await expect(page.getByRole("heading", { name: `# ${name}` })).toBeVisible({ timeout: 30_000 });
  await waitLive(page);
  await expect(log(alice.page).getByText(`${carol.username} joined the channel`)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ChatCrypt");
  await noSideways(page);
  // The narrowest phones too; the search field's hint whole there (it was "Search messa").
  await page.setViewportSize({ width: 360, height: 740 });
  await noSideways(page);
  const searchHintFits = await page.getByRole("combobox", { name: "Search messages" }).evaluate((field: HTMLInputElement) => {
    const style = getComputedStyle(field);
    const pen = document.createElement("canvas").getContext("2d")!;
    pen.font = style.font;
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return pen.measureText(field.placeholder).width <= room;
  });
  expect(searchHintFits, "the search field's hint fits").toBe(true);
  await page.setViewportSize(PHONE.viewport);

  // The header's actions fold into More; the composer's tools are one row of icons with names.
  await expect(page.getByRole("button", { name: "Share Link" })).toBeHidden();
  await tap(page.getByRole("button", { name: "More" }));
  const menu = page.getByRole("menu", { name: "Channel actions" });
  await expect(menu.getByRole("menuitem", { name: "Members" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(page.getByRole("button", { name: "More" })).toBeFocused();
  const tools = ["Attach file", "Record audio", "Dictation", "WhatsApp mode"].map((label) => page.getByRole("button", { name: label }));
  const tops = await Promise.all(tools.map(async (t) => (await t.boundingBox())!.y));
  expect(new Set(tops.map((y) => Math.round(y))).size, "the composer's tools are in one row").toBe(1);
  await noSideways(page);
  // The message box's hint is whole in the box, not cut at its last line.
  const hintFits = (box: HTMLTextAreaElement) => {
    const copy = box.cloneNode() as HTMLTextAreaElement;
    copy.value = box.placeholder;
    box.after(copy);
    const fits = copy.scrollHeight <= copy.clientHeight + 1;
    copy.remove();
    return fits;
  };
  expect(await page.getByLabel("Message", { exact: true }).evaluate(hintFits)).toBe(true);

  // Send.
  const box = page.getByLabel("Message", { exact: true });
  await tap(box);
  await box.fill("hello from a phone");
  await tap(page.getByRole("button", { name: "Send" }));
  await expect(log(alice.page).getByText("hello from a phone")).toBeVisible();
  await send(alice.page, "welcome, phone");
  await expect(log(page).getByText("welcome, phone")).toBeVisible();

  // The channel drawer: closed, nothing in it can be reached; the toggle says whether it is open,
  // Esc closes it and gives focus back.
  const toggle = page.getByRole("button", { name: "Show channels" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("button", { name: `Leave ${name}` })).toBeHidden();
  await tap(toggle);
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("button", { name: `Leave ${name}` })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toBeFocused();
  await noSideways(page);

  // Leave (the button shows without hover on a touch screen).
  await tap(toggle);
  const leave = page.getByRole("button", { name: `Leave ${name}` });
  expect(await leave.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
  await tap(leave);
  const confirm = page.getByRole("dialog", { name: "Leave Channel" });
  await tap(confirm.getByRole("button", { name: "Leave", exact: true }));
  await expect(confirm).toBeHidden();
  await expect(page.getByText("You are not in any channel yet.")).toBeVisible();
  await expect(log(alice.page).getByText(`${carol.username} left the channel`)).toBeVisible();
  // (she left it herself: nothing says it went)
  await staysAbsent(page.getByText("That channel is no longer available."));
  await noSideways(page);

  // The drawer stays open over no conversation: the list to choose from (it closed when leaving took
  // its history entry away).
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect.poll(async () => (await page.getByRole("navigation", { name: "Channels" }).boundingBox())?.x).toBe(0);

  // The Menu opened over the open drawer lies above it: every item can be tapped; Esc closes it.
  await tap(page.getByRole("button", { name: "Menu" }));
  const items = page.getByRole("menu").getByRole("menuitem");
  await expect(items.first()).toBeVisible();
  for (const item of await items.all()) expect(await uncovered(item), await item.innerText()).toBe(true);
  await page.keyboard.press("Escape");
  await expect(items).toHaveCount(0);

  // Sign out, after confirming. The account's button, with its long name, stays inside the drawer.
  const account = page.getByRole("button", { name: /sign out/i });
  const drawer = (await page.getByRole("navigation", { name: "Channels" }).boundingBox())!;
  const signOutLabel = (await account.getByText("Sign out", { exact: true }).boundingBox())!;
  expect(signOutLabel.x + signOutLabel.width).toBeLessThanOrEqual(drawer.x + drawer.width);
  expect(signOutLabel.height, "Sign out on one line").toBeLessThan(24);
  await tap(page.getByRole("button", { name: /sign out/i }));
  const dialog = page.getByRole("dialog", { name: "Sign out?" });
  await tap(dialog.getByRole("button", { name: "Sign out", exact: true }));
  await expect(page.getByRole("heading", { name: "Sign In" })).toBeVisible();
  await noSideways(page);
  await context.close();
  await alice.context.close();
});

test("signing out asks first; Cancel keeps the session", async ({ browser }) => {
  const alice = await person(browser, "alice");
  await alice.page.getByRole("button", { name: /sign out/i }).click();
  const dialog = alice.page.getByRole("dialog", { name: "Sign out?" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(alice.page.getByText(`@${alice.user.username}`)).toBeVisible();
  await signOut(alice.page);
  await expect(alice.page.getByRole("heading", { name: "Sign In" })).toBeVisible();
  await alice.context.close();
});

test("on a phone, the recovery key offered at an invited sign-up stays offered while the invite's channel opens; the channel opens once it is answered", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const name = `Offer Room ${Date.now() % 100000}`;
  await createChannel(alice.page, name, `offer-${Date.now()}`);
  const link = await copyInviteLink(alice.page);

  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, ...PHONE });
  const page = await context.newPage();
  // The join is held until the offer is on the screen with its history entry (ui/useBackCloses), as
  // when the offer comes first on a slow network.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/channels/join", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(link);
  const carol = newUser("carol");
  await page.getByLabel("Username").fill(carol.username);
  await page.getByLabel("Email").fill(carol.email);
  await page.getByLabel("Password").fill(carol.password);
  await tap(page.getByRole("button", { name: "Sign Up", exact: true }));
  const offer = page.getByRole("dialog", { name: "Save your recovery key" });
  await expect(offer).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => page.evaluate(() => Boolean((history.state as Record<string, unknown> | null)?.chatcryptPanel))).toBe(true);
  const joined = page.waitForResponse("**/api/channels/join");
  release();
  expect((await joined).status()).toBe(200);
  // The channel is in her list (the drawer, closed, hidden from assistive technology): the page would open it now. The offer stays as
  // it was, with nothing behind it moved, for two seconds checked ten times a second.
  await expect(page.locator("nav").filter({ hasText: name })).toBeAttached({ timeout: 30_000 });
  for (const end = Date.now() + 2_000; Date.now() < end;) {
    await expect(offer).toBeVisible({ timeout: 100 });
    expect(new URL(page.url()).pathname).toBe("/");
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
  }
  await expect(page.getByRole("dialog", { name: "Continue without a recovery key?" })).toBeHidden();

  // Answered, the invite's channel opens, and Back leaves it as from any channel opened.
  await notNowRecoveryKey(page);
  await expect(page.getByRole("heading", { name: `# ${name}` })).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/c\//);
  await context.close();
  await alice.context.close();
});
