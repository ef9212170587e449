import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, newUser, signUp } from "./fixtures";
import { copyInviteLink, createChannel, waitLive, type Person } from "./helpers";

/** A phone: 390x844, touch, no hover. */
export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/**
 * Alice creates the channel `name` and Bob signs up on a phone through its invite link: his page, live,
 * in the channel.
 */
export async function bobOnAPhoneJoins(
  browser: Browser,
  alice: Person,
  name: string,
): Promise<{ context: BrowserContext; page: Page; user: ReturnType<typeof newUser> }> {
  await createChannel(alice.page, name, `phone-${Date.now()}`);
  const link = await copyInviteLink(alice.page);
  await waitLive(alice.page);
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, ...PHONE });
  const page = await context.newPage();
  await page.goto(link);
  // (the page keeps the invite and takes it out of the address before the sign-up)
  await expect(page).not.toHaveURL(/invite=/);
  const user = newUser("bob");
  await signUp(page, user);
  await expect(page.getByRole("heading", { name: `# ${name}` })).toBeVisible({ timeout: 30_000 });
  await waitLive(page);
  return { context, page, user };
}
