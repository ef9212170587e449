import type { Page } from "@playwright/test";

/**
 * Chooses an item of the header's "Channel details" ("Conversation details" in a direct conversation):
 * Members (Participants), Pinned, News Feed, Invite people.
 */
export async function openDetail(page: Page, item: string) {
  const details = /^(Channel|Conversation) details$/;
  await page.getByRole("button", { name: details }).click();
  await page.getByRole("menu", { name: details }).getByRole("menuitem", { name: item, exact: true }).click();
}
