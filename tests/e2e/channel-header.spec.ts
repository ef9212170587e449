// The channel header in one row, "Channel details" with one "Invite people", toasts over no control,
// and Leave's own icon (issue 46, item 6; docs/decisions/0074-the-channel-header-in-one-row.md).
import type { Locator, Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, person, send, waitLive } from "./helpers";

type Box = { x: number; y: number; width: number; height: number };

const intersect = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The boxes of what `within` shows that can be pressed or typed in, with their names. */
async function controls(within: Locator): Promise<{ name: string; box: Box }[]> {
  return within.locator("button, input, textarea, select, a[href]").evaluateAll((els) =>
    els
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ el, r }) => r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden")
      .map(({ el, r }) => ({
        name: el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName,
        box: { x: r.x, y: r.y, width: r.width, height: r.height },
      })),
  );
}

const header = (page: Page) => page.locator(".chat-header");

/** The header is one row (every control shares one horizontal band), no two controls meet, and the name keeps its room. */
async function expectOneRow(page: Page, where: string) {
  const found = await controls(header(page));
  expect(found.length, where).toBeGreaterThan(5);
  const top = Math.max(...found.map((c) => c.box.y));
  const bottom = Math.min(...found.map((c) => c.box.y + c.box.height));
  expect(top, `${where}: the header's controls are in one row`).toBeLessThan(bottom);
  for (const [i, a] of found.entries())
    for (const b of found.slice(i + 1)) expect(intersect(a.box, b.box), `${where}: ${a.name} and ${b.name} overlap`).toBe(false);
  const name = (await header(page).getByRole("heading", { level: 2 }).boundingBox())!;
  expect(name.width, `${where}: the channel name keeps its room`).toBeGreaterThan(100);
  for (const c of found) expect(intersect(name, c.box), `${where}: ${c.name} is over the name`).toBe(false);
}

/** The toast covers none of the header's and the composer's controls. */
async function expectToastClear(page: Page, toast: Locator, where: string) {
  const box = (await toast.boundingBox())!;
  for (const c of [...(await controls(header(page))), ...(await controls(page.locator("form.composer")))])
    expect(intersect(box, c.box), `${where}: the toast covers ${c.name}`).toBe(false);
}

test("the channel header: one row, Channel details with one Invite people, and toasts over no control", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "header");
  const { page } = alice;
  await page.setViewportSize({ width: 1280, height: 800 });
  const name = "A channel with a long enough name";
  const channelId = await createChannel(page, name, "header-pass-1");
  await waitLive(page);
  await send(page, "something to clear and save");

  // The specification's buttons, by their names; Clear Messages last, the destructive one.
  const actions = header(page).locator(".chat-actions");
  for (const label of ["Notifications", "Translate", "Save Chat", "Share Link", "Copy ID", "Clear Messages"])
    await expect(actions.getByRole("button", { name: label, exact: true })).toBeVisible();
  const names = (await controls(actions)).map((c) => c.name);
  expect(names.at(-1)).toBe("Clear Messages");
  await expect(actions.getByRole("button", { name: "Clear Messages" })).toHaveClass(/btn-danger/);
  for (const moved of ["Members", "Pinned", "Add people", "News Feed"])
    await expect(page.getByRole("button", { name: moved, exact: true })).toHaveCount(0);
  await expectOneRow(page, "1280x800");

  // Channel details: its items, exactly one Invite people; Esc closes and gives focus back.
  const details = page.getByRole("button", { name: "Channel details" });
  await details.click();
  const menu = page.getByRole("menu", { name: "Channel details" });
  await expect(menu.getByRole("menuitem", { name: "Members" })).toBeFocused();
  await expect(menu.getByRole("menuitem", { name: "Pinned" })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Invite people" })).toHaveCount(1);
  await expect(menu.getByRole("menuitem", { name: /Share Link|Copy ID|Add people/ })).toHaveCount(0);
  await expectAccessible(page, "Channel details at 1280x800");
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(details).toBeFocused();

  // Invite people: the ID with its copy button and the link, in one dialog; copying says so.
  await details.click();
  await menu.getByRole("menuitem", { name: "Invite people" }).click();
  const dialog = page.getByRole("dialog", { name: `Invite to #${name}` });
  await expect(dialog.getByLabel("Channel ID")).toHaveValue(channelId);
  await expectAccessible(page, "invite dialog at 1280x800");
  await page.evaluate(() => navigator.clipboard.writeText(""));
  await dialog.getByRole("button", { name: "Copy channel ID" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Channel ID copied to the clipboard.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(channelId);
  await dialog.getByRole("button", { name: "Copy invite link" }).click();
  await expect(dialog).toBeHidden();
  const linkToast = page.getByRole("status").filter({ hasText: "Invite link copied" });
  await expect(linkToast).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/invite=/);
  await expectToastClear(page, linkToast, "invite link toast at 1280x800");

  // The header's Copy ID: its toast covers no control, and goes as before.
  await page.getByRole("button", { name: "Copy ID", exact: true }).click();
  const idToast = page.getByRole("status").filter({ hasText: "Channel ID copied to the clipboard." });
  await expect(idToast).toBeVisible();
  await expectToastClear(page, idToast, "Channel ID toast at 1280x800");
  await expect(idToast).toBeHidden({ timeout: 15_000 });

  await page.setViewportSize({ width: 1024, height: 768 });
  await expectOneRow(page, "1024x768");

  // A phone: the More fold holds it all; the toast covers no control there either.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(details).toBeHidden();
  const more = page.getByRole("button", { name: "More", exact: true });
  await more.click();
  const fold = page.getByRole("menu", { name: "Channel actions" });
  await expect(fold.getByRole("menuitem", { name: "Members" })).toBeFocused();
  await expect(fold.getByRole("menuitem", { name: "Invite people" })).toHaveCount(1);
  await expectAccessible(page, "Channel actions at 390x844");
  await fold.getByRole("menuitem", { name: "Invite people" }).click();
  await expect(dialog.getByLabel("Channel ID")).toHaveValue(channelId);
  await expectAccessible(page, "invite dialog at 390x844");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await more.click();
  await fold.getByRole("menuitem", { name: "Copy ID" }).click();
  await expect(idToast).toBeVisible();
  await expectToastClear(page, idToast, "Channel ID toast at 390x844");
  await alice.context.close();
});

test("Leave has its own icon; the trash means Delete", async ({ browser }) => {
  test.setTimeout(90_000);
  const [alice, bob] = await Promise.all([person(browser, "owner"), person(browser, "member")]);
  const theirs = "Alices room";
  const channelId = await createChannel(alice.page, theirs, "leave-pass-1");
  await createChannel(bob.page, "Bobs room", "delete-pass-1");
  await joinAndOpen(bob.page, channelId, "leave-pass-1", theirs);
  const sidebar = bob.page.getByRole("navigation");
  const leave = sidebar.getByRole("button", { name: `Leave ${theirs}` });
  const remove = sidebar.getByRole("button", { name: "Delete Bobs room" });
  await expect(leave).toHaveAttribute("title", "Leave");
  await expect(remove).toHaveAttribute("title", "Delete");
  const leaveIcon = await leave.locator("svg").innerHTML();
  const trash = await remove.locator("svg").innerHTML();
  expect(leaveIcon).not.toBe(trash);
  // the trash is the one "Delete all channels" shows
  expect(await sidebar.getByRole("button", { name: "Delete all channels" }).locator("svg").innerHTML()).toBe(trash);
  await Promise.all([alice.context.close(), bob.context.close()]);
});
