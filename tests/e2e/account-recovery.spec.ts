import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { expect, filesContaining, newUser, openAuth, signIn, signOut, type TestUser } from "./fixtures";
import {
  createChannel,
  createSealed,
  joinAndOpen,
  keyPackagesSent,
  log,
  openConversation,
  person,
  recordRequests,
  send,
  startConversation,
  waitInGroup,
  waitLive,
} from "./helpers";
import { mailTest as test, type MailStack } from "./mail-stack";
import { askForReset, newPassword, openSignUpLink } from "./reset-helpers";

// Account recovery (ADR 27): a recovery key saved at sign-up and replaced in Account, a forgotten
// password reset through PocketBase's email (real SMTP on loopback) with the recovery key, and a reset
// without it. This spec runs its own PocketBase with SMTP and a web server whose address is APP_URL.

const WHAT_IS_LOST =
  "Without your recovery key, ChatCrypt cannot open what was encrypted for your old keys: your channels' saved passwords, your contacts, settings and the history of sealed channels and direct messages. You will need each channel's password again. Your contacts will be told your keys changed.";

/** Reads the words the recovery key dialog shows, saves them (Copy, Download), confirms and presses Done. */
async function saveRecoveryKey(page: Page, user: TestUser): Promise<string> {
  const dialog = page.getByRole("dialog", { name: "Save your recovery key" });
  const items = dialog.getByRole("list", { name: "Recovery key" }).getByRole("listitem");
  await expect(items).toHaveCount(24, { timeout: 20_000 });
  const words = await items.allInnerTexts();
  const phrase = words.join(" ");
  await dialog.getByRole("button", { name: "Copy" }).click();
  await expect(dialog.getByText("Recovery key copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(phrase);
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toBe(`chatcrypt-recovery-key-${user.username}.txt`);
  await expect(dialog.getByText(`Recovery key downloaded as chatcrypt-recovery-key-${user.username}.txt.`)).toBeVisible();
  const file = readFileSync(await download.path(), "utf8");
  expect(file).toContain(`Account: ${user.email}`);
  expect(file).toContain(` 1. ${words[0]}\n`);
  expect(file).toContain(`24. ${words[23]}\n`);
  await expect(dialog.getByRole("button", { name: "Done" })).toBeDisabled();
  await dialog.getByLabel("I have saved it").check();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  return phrase;
}

/** Nothing of these secrets in any request, PocketBase's data directory, or the web server's and PocketBase's logs. */
function expectNowhere(secrets: string[], sent: string[], stack: MailStack) {
  const logs = [readFileSync(`${stack.web.logDir}/web.log`, "utf8"), stack.pb.logs()].join("\n");
  for (const secret of secrets) {
    expect(sent.filter((line) => line.includes(secret))).toEqual([]);
    expect(filesContaining([stack.pb.dataDir, stack.web.logDir], secret)).toEqual([]);
    expect(logs.includes(secret)).toBe(false);
  }
}

test("recovery key: saved at sign-up, replaced in Account; a forgotten password reset through the email reads every channel, the sealed one and the DM", async ({
  browser,
  stack,
}) => {
  test.setTimeout(240_000);
  const { smtp, pb, web } = stack;
  const alice = newUser("alice");
  const context = await browser.newContext({ baseURL: web.url, permissions: ["clipboard-read", "clipboard-write"] });
  const sent = recordRequests(context);
  const page = await context.newPage();

  // Sign-up offers the recovery key at once.
  await openAuth(page);
  await page.getByRole("button", { name: "Don't have an account? Sign up" }).click();
  await page.getByLabel("Username").fill(alice.username);
  await page.getByLabel("Email").fill(alice.email);
  await page.getByLabel("Password").fill(alice.password);
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  const firstKey = await saveRecoveryKey(page, alice);

  // A classic channel, a sealed channel and a direct conversation with Bob, each with a message.
  const bob = await person(browser, "bob", web.url);
  const classicPassword = `classic-${Date.now()}`;
  const classicId = await createChannel(page, "Recovery Classic", classicPassword);
  await joinAndOpen(bob.page, classicId, classicPassword, "Recovery Classic");
  await waitLive(page);
  await send(page, "classic before the reset");
  await expect(log(bob.page).getByText("classic before the reset")).toBeVisible({ timeout: 20_000 });

  const sealedPassword = `sealed-${Date.now()}`;
  const sealedId = await createSealed(page, "Recovery Sealed", sealedPassword);
  await joinAndOpen(bob.page, sealedId, sealedPassword, "Recovery Sealed");
  for (const p of [page, bob.page]) await waitInGroup(p);
  await send(page, "sealed before the reset");
  await expect(log(bob.page).getByText("sealed before the reset")).toBeVisible({ timeout: 30_000 });

  await keyPackagesSent(bob, pb);
  await startConversation(page, [bob.user.username]);
  await waitLive(page);
  await send(page, "direct before the reset");
  await openConversation(bob.page, alice.username);
  await expect(log(bob.page).getByText("direct before the reset")).toBeVisible({ timeout: 30_000 });

  // Account > Recovery key: replacing it makes new words; the first ones stop working.
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("menuitem", { name: "Account" }).click();
  const account = page.getByRole("dialog", { name: "Account" });
  await expect(account.getByRole("heading", { name: "Recovery key" })).toBeVisible();
  await expect(account.getByText(/^Created on /)).toBeVisible();
  await account.getByRole("button", { name: "Replace the recovery key" }).click();
  await expect(page.getByText("Your current recovery key stops working when you press Done.")).toBeVisible();
  const recoveryKey = await saveRecoveryKey(page, alice);
  expect(recoveryKey).not.toBe(firstKey);
  await page.keyboard.press("Escape");
  await expect(account).toBeHidden();
  await signOut(page);

  // Forgot the password, on her phone (a device that never had her data): the emailed link opens the
  // reset page there, and her sealed and direct history comes from her message archive (ADR 0048).
  const phoneContext = await browser.newContext({ baseURL: web.url });
  recordRequests(phoneContext, sent);
  const phone = await phoneContext.newPage();
  await openSignUpLink(phone, smtp, alice.email);
  const link = await askForReset(phone, smtp, alice.email);
  expect(link).toMatch(new RegExp(`^${web.url}/reset-password#token=`));
  await phone.goto(link);
  await expect(phone.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await expect(phone).not.toHaveURL(/token/);
  const password = `new-${Date.now()}-Canary`;
  // the replaced key no longer opens anything; a mistyped one is caught by its checksum
  await phone.getByLabel("Recovery key").fill(firstKey);
  await newPassword(phone, password);
  await phone.getByRole("button", { name: "Reset password" }).click();
  await expect(phone.getByRole("alert")).toHaveText(
    "This recovery key does not open your account's keys. Check each word, or reset without it.",
  );
  const words = recoveryKey.split(" ");
  await phone.getByLabel("Recovery key").fill([...words.slice(0, 23), words[23] === "zoo" ? "abandon" : "zoo"].join(" "));
  await phone.getByRole("button", { name: "Reset password" }).press("Enter");
  await expect(phone.getByRole("alert")).toHaveText("This is not a valid recovery key. Check each word against the one you saved.");
  // pasted as downloaded (numbered, one per line) works too
  await phone.getByLabel("Recovery key").fill(words.map((word, i) => `${i + 1}. ${word}`).join("\n"));
  await phone.getByRole("button", { name: "Reset password" }).click();
  await expect(phone.getByRole("status")).toHaveText(
    "Your password has been reset and every device was signed out. Sign in with your new password.",
    { timeout: 20_000 },
  );
  // the link is used up (opened afresh: from the same page it would only change the fragment)
  await phone.goto("about:blank");
  await phone.goto(link);
  await expect(phone.getByRole("alert")).toHaveText(
    "This reset link is invalid, has expired or was already used. Ask for a new one from the sign-in screen.",
  );

  // The old password is refused; the new one opens everything on the phone.
  await signIn(phone, alice);
  await expect(phone.getByRole("alert")).toHaveText("Invalid email or password.");
  await signIn(phone, { email: alice.email, password });
  await expect(phone.getByText(`@${alice.username}`)).toBeAttached({ timeout: 20_000 });
  await phone.getByRole("button", { name: "# Recovery Classic" }).click();
  await expect(log(phone).getByText("classic before the reset")).toBeVisible({ timeout: 20_000 });
  await phone.getByRole("button", { name: "# Recovery Sealed" }).click();
  await expect(log(phone).getByText("sealed before the reset")).toBeVisible({ timeout: 30_000 });
  await expect(phone.getByText("Messages sent before this device joined the sealed channel cannot be read here.")).toHaveCount(0);
  await waitLive(phone);
  await send(phone, "sealed after the reset");
  await bob.page.getByRole("button", { name: "# Recovery Sealed" }).click();
  await expect(log(bob.page).getByText("sealed after the reset")).toBeVisible({ timeout: 30_000 });
  await openConversation(phone, bob.user.username);
  await expect(log(phone).getByText("direct before the reset")).toBeVisible({ timeout: 30_000 });
  await expect(phone.getByText("Messages sent before this device joined the sealed channel cannot be read here.")).toHaveCount(0);
  await send(phone, "direct after the reset");
  await openConversation(bob.page, alice.username);
  await expect(log(bob.page).getByText("direct after the reset")).toBeVisible({ timeout: 30_000 });
  // the keys did not change: Bob is warned of nothing
  await expect(bob.page.getByText(/security keys changed/)).toHaveCount(0);
  await expect(phone.getByText(/could not be read/)).toHaveCount(0);
  // Her laptop, signed in with the new password, shows what it kept.
  await signIn(page, { email: alice.email, password });
  await openConversation(page, bob.user.username);
  await expect(log(page).getByText("direct before the reset")).toBeVisible({ timeout: 30_000 });

  // Neither the recovery keys nor the new password reached the server.
  expectNowhere([firstKey, recoveryKey, words.slice(0, 4).join(" "), password], sent, stack);
  await context.close();
  await phoneContext.close();
  await bob.context.close();
});

test("reset without a recovery key: the page says what is lost, and the other member sees the key-change warning", async ({
  browser,
  stack,
}) => {
  test.setTimeout(180_000);
  const { smtp, web } = stack;
  const carol = await person(browser, "carol", web.url);
  const dave = await person(browser, "dave", web.url);
  const sent = recordRequests(carol.context);
  const channelPassword = `team-${Date.now()}`;
  const channelId = await createChannel(carol.page, "No Key", channelPassword);
  await joinAndOpen(dave.page, channelId, channelPassword, "No Key");
  await waitLive(carol.page);
  await send(carol.page, "before carol lost her keys");
  await expect(log(dave.page).getByText("before carol lost her keys")).toBeVisible({ timeout: 20_000 });
  await signOut(carol.page);

  await openSignUpLink(carol.page, smtp, carol.user.email);
  const link = await askForReset(carol.page, smtp, carol.user.email);
  await carol.page.goto(link);
  await expect(carol.page.getByText("This account has no recovery key.")).toBeVisible();
  await expect(carol.page.getByText(WHAT_IS_LOST)).toBeVisible();
  await expect(carol.page.getByLabel("Recovery key")).toHaveCount(0);
  const password = `fresh-${Date.now()}-Canary`;
  await newPassword(carol.page, "short");
  await carol.page.getByRole("button", { name: "Reset without recovery key" }).click();
  await expect(carol.page.getByRole("alert")).toHaveText("Password must be at least 8 characters.");
  await newPassword(carol.page, password);
  await carol.page.getByRole("button", { name: "Reset without recovery key" }).click();
  await expect(carol.page.getByRole("status")).toHaveText(
    "Your password has been reset and every device was signed out. Sign in with your new password, then join each channel again with its password.",
    { timeout: 20_000 },
  );
  await carol.page.getByRole("link", { name: "Sign in" }).click();
  await signIn(carol.page, { email: carol.user.email, password });
  await expect(carol.page.getByText(`@${carol.user.username}`)).toBeAttached({ timeout: 20_000 });

  // Dave's page pinned Carol's old keys: it warns that they changed.
  await dave.page.reload();
  await dave.page.getByRole("button", { name: "# No Key" }).click();
  await expect(dave.page.getByRole("alert").filter({ hasText: `${carol.user.username}'s security keys changed` })).toBeVisible({
    timeout: 20_000,
  });

  expectNowhere([password], sent, stack);
  await carol.context.close();
  await dave.context.close();
});
