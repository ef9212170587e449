// People in chromium for the browser phases (bench/first-dm.ts, bench/new-device.ts): sign-up (through
// an invite link when given), a team channel's invite link, a one-to-one started from "New message".
import type { Browser, Page } from "@playwright/test";

export const TEAM = "Team";
export const tag = () => Math.random().toString(16).slice(2, 10);

/**
 * Signs a new user up in a new context (through an invite link, when given: then also waits until the
 * invite's channel is open); answers the page and the sign-up's click-to-workspace time.
 */
export async function signUp(browser: Browser, baseURL: string, name: string, invite?: string) {
  const context = await browser.newContext({ baseURL, permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  await page.goto(invite ?? "/");
  // (an invite opens Sign Up at once)
  if (!invite) await page.getByRole("button", { name: "Don't have an account? Sign up" }).click();
  await page.getByLabel("Username").fill(name);
  await page.getByLabel("Email").fill(`${name}@example.test`);
  await page.getByLabel("Password").fill(`pw-${name}-long-enough`);
  const clicked = Date.now();
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await page.getByText(`@${name}`).waitFor({ state: "attached", timeout: 30_000 });
  const ms = Date.now() - clicked;
  await page.getByRole("dialog", { name: "Save your recovery key" }).getByRole("button", { name: "Not now" }).click();
  await page.getByRole("dialog", { name: "Continue without a recovery key?" }).getByRole("button", { name: "Continue without it" }).click();
  if (invite) await page.getByRole("heading", { name: `# ${TEAM}` }).waitFor({ timeout: 30_000 });
  return { page, ms };
}

/** Alice's team channel, and its invite link (Share Link). */
export async function teamLink(page: Page) {
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Create Channel" });
  await dialog.getByLabel("Channel Name").fill(TEAM);
  await dialog.getByLabel("Password").fill(`team-${tag()}-long-enough`);
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("heading", { name: `# ${TEAM}` }).waitFor({ timeout: 30_000 });
  await page.getByRole("button", { name: "Share Link" }).click();
  // the invite dialog: 7 days, unlimited uses (its defaults)
  await page
    .getByRole("dialog", { name: /^Invite to #/ })
    .getByRole("button", { name: "Copy invite link" })
    .click();
  await page.getByText("Invite link copied").waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Types `text` into the open conversation's box and sends it: the box empties once the page took it. */
export async function sendText(page: Page, text: string) {
  const box = page.getByLabel("Message", { exact: true });
  await box.fill(text);
  await box.press("Enter");
  await page.waitForFunction((el) => (el as HTMLTextAreaElement).value === "", await box.elementHandle());
}

/** Alice starts a one-to-one with `name` and sends; answers the start's click time and how long it took. */
export async function startAndSend(page: Page, name: string, text: string) {
  const dialog = page.getByRole("dialog", { name: "New message" });
  await page.getByRole("button", { name: "New message" }).click();
  await dialog.getByLabel("Find by username").fill(name);
  await dialog.getByLabel("Find by username").press("Enter");
  await dialog.getByRole("checkbox", { name, checked: true }).waitFor();
  const clicked = Date.now();
  await dialog.getByRole("button", { name: "Start conversation" }).click();
  await dialog.waitFor({ state: "hidden", timeout: 30_000 });
  const startMs = Date.now() - clicked;
  await sendText(page, text);
  return { clicked, startMs };
}
