import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { bobOnAPhoneJoins, PHONE } from "./phone-helpers";
import { log, person, send } from "./helpers";

// A phone, 390x844 (ADR 0067): a thread, the members and the pinned messages open full-screen with a
// way back, and the thread's reply is sent from there; a message's actions are one "More actions"
// menu (or a long-press); the top bar has no world clock (the Menu has it); the conversation's name is
// whole and no control of the header or the composer overlaps another.

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;

/** The visible controls in `area` with their boxes, named for the report. */
async function controls(area: Locator): Promise<{ name: string; box: Box }[]> {
  return area.evaluate((root) =>
    [...root.querySelectorAll<HTMLElement>("button, input, textarea, select, a[href], h2")]
      // (a file input is reached through its button: it is there for the browser's picker only)
      .filter(
        (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden" && (el as HTMLInputElement).type !== "file",
      )
      .map((el) => {
        const r = el.getBoundingClientRect();
        const name = el.getAttribute("aria-label") || el.textContent?.trim() || el.tagName;
        return { name, box: { x: r.x, y: r.y, width: r.width, height: r.height } };
      }),
  );
}

async function noOverlaps(page: Page, areas: Locator[]) {
  const all = (await Promise.all(areas.map(controls))).flat();
  expect(all.length).toBeGreaterThan(3);
  const clashes: string[] = [];
  for (let i = 0; i < all.length; i++)
    for (let j = i + 1; j < all.length; j++) if (overlaps(all[i]!.box, all[j]!.box)) clashes.push(`${all[i]!.name} / ${all[j]!.name}`);
  expect(clashes, "controls that overlap").toEqual([]);
  for (const { name, box } of all)
    expect(box.x >= -0.5 && box.x + box.width <= PHONE.viewport.width + 0.5, `${name} is on the screen`).toBe(true);
}

const fillsScreen = async (panel: Locator) => {
  const box = (await panel.boundingBox())!;
  expect(box).toEqual({ x: 0, y: 0, width: PHONE.viewport.width, height: PHONE.viewport.height });
};

test("on a phone: a thread opens full-screen and its reply is sent; one More menu per message; no clock in the top bar; nothing overlaps", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const name = `Design Review ${Date.now() % 1000}`;
  const { context, page } = await bobOnAPhoneJoins(browser, alice, name);
  const heading = page.getByRole("heading", { name: `# ${name}` });
  await send(alice.page, "the root of a thread");
  const root = log(page).getByRole("article").filter({ hasText: "the root of a thread" });
  await expect(root).toBeVisible();

  // The top bar: no world clock; the Menu's "Set World Clock" shows the time.
  const topBar = page.locator("header.app-header");
  await expect(topBar.getByRole("list", { name: "World clock" })).toBeHidden();
  await page.getByRole("button", { name: "Menu", exact: true }).tap();
  await page.getByRole("menuitem", { name: "Set World Clock" }).tap();
  const clockDialog = page.getByRole("dialog", { name: "World Clock Settings" });
  await expect(clockDialog.getByRole("list", { name: "World clock" }).getByRole("listitem").first()).toBeVisible();
  await clockDialog.getByRole("button", { name: "Cancel" }).tap();
  await expect(clockDialog).toBeHidden();

  // The name is whole, and no control of the top bar, the channel's header or the composer overlaps another.
  expect(await heading.evaluate((h) => h.scrollWidth <= h.clientWidth)).toBe(true);
  await noOverlaps(page, [topBar, page.locator(".chat-header"), page.locator("form.composer")]);

  // A message's actions: one "More actions", a real menu with every action named.
  await expect(root.getByRole("button", { name: "Reply", exact: true })).toHaveCount(0);
  await expect(root.getByRole("button", { name: "React" })).toHaveCount(0);
  await root.getByRole("button", { name: "More actions" }).tap();
  const menu = page.getByRole("menu", { name: `More actions for the message from ${alice.user.username}` });
  for (const item of ["Reply", "Reply in thread", "Copy link to message", "Pin message", "React with 👍"])
    await expect(menu.getByRole("menuitem", { name: item, exact: true })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  // Reply: the message box takes the typing (the keyboard opens; focus stayed on the menu's button);
  // Esc there drops the reply.
  await root.getByRole("button", { name: "More actions" }).tap();
  await menu.getByRole("menuitem", { name: "Reply", exact: true }).tap();
  const composer = page.getByLabel("Message", { exact: true });
  await expect(composer).toBeFocused();
  await composer.press("Escape");
  await expect(page.getByText(/^Replying to/)).toHaveCount(0);
  // a long-press opens the same menu
  await root.locator(".message-text").dispatchEvent("contextmenu");
  await expect(menu).toBeVisible();

  // The thread: full-screen, its reply sent from there, then Back to the conversation.
  await menu.getByRole("menuitem", { name: "Reply in thread" }).tap();
  const thread = page.getByRole("complementary", { name: "Thread" });
  await expect(thread).toBeVisible();
  const threadAddress = page.url();
  await fillsScreen(thread);
  await noOverlaps(page, [thread.locator(".side-panel-head"), thread.locator("form.thread-composer")]);
  await thread.getByLabel("Reply in thread").fill("a reply from the phone");
  await thread.getByRole("button", { name: "Send reply" }).tap();
  await expect(thread.getByRole("list", { name: "Replies" }).getByText("a reply from the phone")).toBeVisible({ timeout: 20_000 });
  await thread.getByRole("button", { name: "Back" }).tap();
  await expect(thread).toBeHidden();
  await expect(heading).toBeVisible();
  await expect(root.getByRole("button", { name: /^1 reply/ })).toBeVisible();
  const alicesRoot = log(alice.page).getByRole("article").filter({ hasText: "the root of a thread" });
  await expect(alicesRoot.getByRole("button", { name: /^1 reply/ })).toBeVisible({ timeout: 20_000 });

  // Members and Pinned: full-screen too, each with its way back.
  for (const [item, panelName] of [
    ["Members", "Members"],
    ["Pinned", "Pinned"],
  ] as const) {
    await page.getByRole("button", { name: "More", exact: true }).tap();
    await page.getByRole("menu", { name: "Channel actions" }).getByRole("menuitem", { name: item }).tap();
    const panel = page.getByRole("complementary", { name: panelName });
    await expect(panel).toBeVisible();
    await fillsScreen(panel);
    await panel.getByRole("button", { name: "Back" }).tap();
    await expect(panel).toBeHidden();
  }
  // The thread's own Back was a step back: the phone's Back now leaves the conversation rather than
  // opening the thread again (it did, and Back and the thread's Back then went round in a loop).
  await page.goBack();
  await expect(page).not.toHaveURL(/\/t\//);
  await expect(thread).toBeHidden();

  // The same on a page loaded at the thread (a reload, a link): the page does not know where the thread
  // was opened from; its Back added an entry, and the phone's Back opened the thread again.
  await page.goto(threadAddress);
  await expect(thread).toBeVisible({ timeout: 20_000 });
  await thread.getByRole("button", { name: "Back" }).tap();
  await expect(thread).toBeHidden();
  await page.goBack();
  await expect(page).not.toHaveURL(/\/t\//);
  await expect(thread).toBeHidden();
  await context.close();
  await alice.context.close();
});
