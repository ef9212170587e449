import type { Page } from "@playwright/test";

/** Chooses an item of the channel header's "Channel details": Members (Participants), Pinned, News Feed, Invite people. */
export async function openDetail(page: Page, item: string) {
  await page.getByRole("button", { name: "Channel details" }).click();
  await page.getByRole("menu", { name: "Channel details" }).getByRole("menuitem", { name: item, exact: true }).click();
}
