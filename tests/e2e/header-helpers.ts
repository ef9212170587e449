import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * Chooses an item of the header's "Channel details" ("Conversation details" in a direct conversation):
 * Members (Participants), Pinned, News Feed, Invite people.
 */
export async function openDetail(page: Page, item: string) {
  const details = /^(Channel|Conversation) details$/;
  await page.getByRole("button", { name: details }).click();
  await page.getByRole("menu", { name: details }).getByRole("menuitem", { name: item, exact: true }).click();
}

/** A sealed channel's security code in its members panel (a group conversation's: `panel` "Participants"), opened, read, closed. */
export async function securityCode(page: Page, panel = "Members"): Promise<string> {
  await openDetail(page, panel);
  const code = page.getByRole("complementary", { name: panel }).locator(".sealed-code");
  await expect(code).toHaveText(/^\d{5} \d{5}$/);
  const text = await code.innerText();
  await page.getByRole("button", { name: `Close ${panel.toLowerCase()}` }).click();
  return text;
}
