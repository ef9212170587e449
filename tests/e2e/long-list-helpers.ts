import type { Locator, Page } from "@playwright/test";
import { expect } from "./fixtures";
import { log } from "./helpers";

// Reading a long message list (ADR 36): long-list.spec.ts and long-list-place.spec.ts.

export const line = (page: Page, text: string) => log(page).getByRole("article").filter({ hasText: text });
/**
 * How far below the list's top a message is (not the page's: the header above the list may wrap its
 * buttons onto another line as the window's content settles, moving the whole list down).
 */
export const top = (article: Locator) =>
  article.evaluate((a) => a.getBoundingClientRect().top - a.closest('[role="log"]')!.getBoundingClientRect().top);

/**
 * The first message in view (its bottom below the list's top, its top above the list's bottom): its
 * text and how far below the list's top it is (as `top`). An empty text while none is: a long list
 * mounts the rows of a new scroll position a moment later, and until then its rows of the old one are
 * still there, out of view.
 */
export const firstInView = (page: Page) =>
  log(page).evaluate((list) => {
    const view = list.getBoundingClientRect();
    const first = [...list.querySelectorAll("article")].find((a) => {
      const box = a.getBoundingClientRect();
      return box.bottom > view.top && box.top < view.bottom;
    });
    return {
      text: first?.querySelector(".message-text")?.textContent ?? "",
      y: first ? first.getBoundingClientRect().top - view.top : NaN,
    };
  });

/**
 * Loads every older page from the top of the list, each at the top without the view jumping. Each page
 * is held back until the message at the top has been recorded: arriving before that (the scroll to the
 * top asks for it at once), it would be recorded while the place is being put back.
 */
export async function loadEveryPage(page: Page, channelId: string) {
  const older = page.getByRole("button", { name: "Load older messages" });
  const isOlder = (url: URL) => url.pathname === `/api/channels/${channelId}/messages` && url.searchParams.has("before");
  while (await older.count()) {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      isOlder,
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    const answered = page.waitForResponse((r) => isOlder(new URL(r.url())));
    await log(page).evaluate((list) => (list.scrollTop = 0));
    let before = { text: "", y: NaN };
    await expect.poll(async () => (before = await firstInView(page)).text).not.toBe("");
    release();
    await answered;
    await expect(page.locator(".load-older[disabled]")).toHaveCount(0, { timeout: 20_000 });
    // (the list becomes virtual with the second page: the message at the top stays where it was all the same)
    await expect(line(page, before.text)).toBeInViewport();
    await expect.poll(() => top(line(page, before.text))).toBeCloseTo(before.y, -2);
  }
}
