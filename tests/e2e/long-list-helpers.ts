import type { Locator, Page } from "@playwright/test";
import { expect } from "./fixtures";
import { log } from "./helpers";

// Reading a long message list (ADR 36): long-list.spec.ts and long-list-place.spec.ts.

export const line = (page: Page, text: string) => log(page).getByRole("article").filter({ hasText: text });
export const top = async (article: Locator) => (await article.boundingBox())!.y;

/**
 * The first message in view (its bottom below the list's top, its top above the list's bottom): its
 * text and how high it is on the page. An empty text while none is: a long list mounts the rows of a
 * new scroll position a moment later, and until then its rows of the old one are still there, out of view.
 */
export const firstInView = (page: Page) =>
  log(page).evaluate((list) => {
    const view = list.getBoundingClientRect();
    const first = [...list.querySelectorAll("article")].find((a) => {
      const box = a.getBoundingClientRect();
      return box.bottom > view.top && box.top < view.bottom;
    });
    return { text: first?.querySelector(".message-text")?.textContent ?? "", y: first?.getBoundingClientRect().top ?? NaN };
  });

/** Loads every older page from the top of the list, each at the top without the view jumping. */
export async function loadEveryPage(page: Page, channelId: string) {
  const older = page.getByRole("button", { name: "Load older messages" });
  while (await older.count()) {
    const answered = page.waitForResponse((r) => r.url().includes(`/api/channels/${channelId}/messages`) && r.url().includes("before="));
    await log(page).evaluate((list) => (list.scrollTop = 0));
    let before = { text: "", y: NaN };
    await expect.poll(async () => (before = await firstInView(page)).text).not.toBe("");
    await answered;
    await expect(page.locator(".load-older[disabled]")).toHaveCount(0, { timeout: 20_000 });
    // (the list becomes virtual with the second page: the message at the top stays where it was all the same)
    await expect(line(page, before.text)).toBeInViewport();
    await expect.poll(() => top(line(page, before.text))).toBeCloseTo(before.y, -2);
  }
}
