import type { Page } from "@playwright/test";
import { expect } from "./fixtures";
import { log } from "./helpers";

// Threads in the browser tests: a message's "Reply in thread", and a reply sent from the panel.

export const article = (page: Page, text: string) => log(page).getByRole("article").filter({ hasText: text });

/** Opens the thread of the message with `rootText` (its "More" menu's "Reply in thread"): the thread's panel. */
export async function openThread(page: Page, rootText: string) {
  await article(page, rootText).hover();
  await article(page, rootText).getByRole("button", { name: "More" }).click();
  await page.getByRole("menuitem", { name: "Reply in thread" }).click();
  return page.getByRole("complementary", { name: "Thread" });
}

/** Deletes the message with `text` from the conversation (its "Delete", confirmed) and waits until it is gone. */
export async function deleteMessage(page: Page, text: string) {
  const target = log(page).getByRole("article").filter({ hasText: text });
  await target.hover();
  await target.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("dialog", { name: "Delete Message" }).getByRole("button", { name: "Delete" }).click();
  await expect(target).toHaveCount(0);
}

/** Sends a reply from a thread's panel (also to the channel when asked) and waits until it is listed there. */
export async function reply(panel: ReturnType<Page["getByRole"]>, text: string, alsoToChannel = false) {
  await panel.getByLabel("Reply in thread").fill(text);
  if (alsoToChannel) await panel.getByLabel("Also send to channel").check();
  await panel.getByRole("button", { name: "Send reply" }).click();
  await expect(panel.getByRole("list", { name: "Replies" }).getByText(text)).toBeVisible({ timeout: 20_000 });
}
