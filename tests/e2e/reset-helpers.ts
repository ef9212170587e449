import type { Browser, Page } from "@playwright/test";
import { type CaptureServer } from "../integration/smtp";
import { expect, openAuth, signIn, type TestUser } from "./fixtures";
import {
  createChannel,
  joinAndOpen,
  keyPackagesSent,
  log,
  openConversation,
  person,
  send,
  startConversation,
  waitLive,
  type Person,
} from "./helpers";

/** The sign-in form's answer to "Send reset link", whatever the address. */
const SENT = "If an account exists for that address, we sent a link to reset its password.";

/**
 * Opens the link mailed at sign-up on this page: the address becomes the account's. Reset mails go only
 * to such an address (docs/decisions/0082-pending-email-at-sign-up.md).
 */
export async function openSignUpLink(page: Page, smtp: CaptureServer, email: string) {
  const links = () => smtp.mailsTo(email).filter((mail) => mail.subject === "Confirm your email address for ChatCrypt");
  await expect.poll(() => links().length, { timeout: 10_000 }).toBeGreaterThan(0);
  await page.goto(/href="([^"]+)"/.exec(links()[0].html)?.[1] ?? "");
  await expect(page.getByText("Email address verified.")).toBeVisible();
}

/** "Forgot your password?" on the sign-in screen, and the link of the email that arrives. */
export async function askForReset(page: Page, smtp: CaptureServer, email: string): Promise<string> {
  const before = smtp.mailsTo(email).length;
  await openAuth(page);
  await page.getByRole("button", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toHaveText(SENT);
  await expect.poll(() => smtp.mailsTo(email).length, { timeout: 10_000 }).toBe(before + 1);
  const mail = smtp.mailsTo(email)[before];
  expect(mail.subject).toBe("Reset your ChatCrypt password");
  // from ChatCrypt, not PocketBase's "Support <support@example.com>"
  expect(mail.from).toMatch(/^"?ChatCrypt"? </);
  return /href="([^"]+)"/.exec(mail.html)?.[1] ?? "";
}

/** Fills the reset page's new password twice. */
export async function newPassword(page: Page, password: string) {
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Confirm new password").fill(password);
}

/** The whole reset without a recovery key (ADR 27), from a signed-out page to signed in again with `password`. */
export async function resetWithoutRecoveryKey(page: Page, smtp: CaptureServer, user: TestUser, password: string) {
  await openSignUpLink(page, smtp, user.email);
  await page.goto(await askForReset(page, smtp, user.email));
  await expect(page.getByText("This account has no recovery key.")).toBeVisible();
  await newPassword(page, password);
  await page.getByRole("button", { name: "Reset without recovery key" }).click();
  await expect(page.getByRole("status")).toHaveText(/^Your password has been reset/, { timeout: 20_000 });
  await page.getByRole("link", { name: "Sign in" }).click();
  await signIn(page, { email: user.email, password });
  await expect(page.getByText(`@${user.username}`)).toBeAttached({ timeout: 20_000 });
}

/**
 * Alice, Bob and Carol on the mail stack's web server, in one channel ("Team"), each device's key
 * packages sent: the reset tests' people, before any of them starts a conversation.
 */
/** A new device (its own browser context) on which `user` resets without the recovery key: its page, signed in. */
export async function resetOnNewDevice(browser: Browser, smtp: CaptureServer, url: string, user: TestUser): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: url })).newPage();
  await resetWithoutRecoveryKey(page, smtp, user, `fresh-${Date.now()}-Reset`);
  return page;
}

export async function threeInTeam(
  browser: Browser,
  stack: { web: { url: string }; pb: { url: string; superuser: { email: string; password: string } } },
): Promise<{ alice: Person; bob: Person; carol: Person }> {
  const [alice, bob, carol] = [
    await person(browser, "alice", stack.web.url),
    await person(browser, "bob", stack.web.url),
    await person(browser, "carol", stack.web.url),
  ];
  const password = `team-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Team", password);
  await joinAndOpen(bob.page, channelId, password, "Team");
  await joinAndOpen(carol.page, channelId, password, "Team");
  for (const p of [alice, bob, carol]) await keyPackagesSent(p, stack.pb);
  return { alice, bob, carol };
}

/** threeInTeam, then a group Alice starts with Bob and Carol, her message `first` read by both. */
export async function groupOfThree(
  browser: Browser,
  stack: Parameters<typeof threeInTeam>[1],
  first: string,
): Promise<{ alice: Person; bob: Person; carol: Person }> {
  const people = await threeInTeam(browser, stack);
  const { alice, bob, carol } = people;
  await startConversation(alice.page, [bob.user.username, carol.user.username]);
  await waitLive(alice.page);
  await send(alice.page, first);
  for (const p of [bob, carol]) {
    await openGroup(p.page, alice.user.username);
    await expect(log(p.page).getByText(first)).toBeVisible({ timeout: 30_000 });
  }
  return people;
}

/** A one-to-one Alice starts with Bob: her message, read by him, and his answer, read by her. */
export async function oneToOneBothWays(alice: Person, bob: Person, [hers, his]: [string, string]) {
  await startConversation(alice.page, [bob.user.username]);
  await waitLive(alice.page);
  await send(alice.page, hers);
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText(hers)).toBeVisible({ timeout: 30_000 });
  await send(bob.page, his);
  await expect(log(alice.page).getByText(his)).toBeVisible({ timeout: 30_000 });
}

/** A group conversation is called by its participants' names: the one that names `username`. */
export const group = (page: Page, username: string) => page.getByRole("button", { name: new RegExp(`^@ .*${username}.*$`) });

export async function openGroup(page: Page, username: string) {
  await expect(group(page, username)).toBeVisible({ timeout: 20_000 });
  await group(page, username).click();
  await waitLive(page);
}

/** "Accept new keys of <username>" in the notice of their reset (ADR 0051), on this page. */
export async function acceptNewKeys(page: Page, username: string) {
  await page
    .getByRole("alert")
    .filter({ hasText: `${username} reset his account` })
    .getByRole("button", { name: `Accept new keys of ${username}` })
    .click();
}
