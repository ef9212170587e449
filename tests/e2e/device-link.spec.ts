import type { Browser, Page } from "@playwright/test";
import { virtualAuthenticator } from "./authenticator";
import { expectAccessible } from "./axe";
import { expect, openAuth, test } from "./fixtures";
import {
  archivedCount,
  trioWithMessages,
  createChannel,
  createSealed,
  joinAndOpen,
  keyPackagesSent,
  log,
  openConversation,
  person,
  send,
  startConversation,
  waitInGroup,
  waitLive,
} from "./helpers";

// A new device approved from a signed-in one (ADR 0059): "Sign in with another device", the same code on
// both screens, Approve, and the new device holds the keys like any other sign-in: the archive (ADR 0048)
// gives it every DM, group and sealed-channel message. Deny: the new device says so and stays signed out.
// The settings users get: no shortened delays.

const OPEN_OTHER = "Open ChatCrypt on a device where you are signed in and approve this one. Check that it shows the same code:";
const BEFORE_JOIN = "Messages sent before this device joined the sealed channel cannot be read here.";
const BEFORE_JOIN_DM = "Messages sent before this device joined the conversation cannot be read here.";
const NOT_A_MEMBER = "Messages sent while you were not in the sealed channel cannot be read.";
const PHONE_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";

/** A new device's page on the sign-in screen, asking to be approved for `username`. */
async function askFromNewDevice(browser: Browser, username: string, phone: boolean): Promise<Page> {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    ...(phone ? { viewport: { width: 390, height: 844 }, userAgent: PHONE_UA, isMobile: true, hasTouch: true } : {}),
  });
  const page = await context.newPage();
  await openAuth(page);
  await page.getByRole("button", { name: "Sign in with another device" }).click();
  await expect(page.getByRole("heading", { name: "Sign in with another device" })).toBeVisible();
  // each step has the keyboard's focus on its first control
  await expect(page.getByLabel("Username or email")).toBeFocused();
  await page.getByLabel("Username or email").fill(username);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText(OPEN_OTHER)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("button", { name: "Cancel" })).toBeFocused();
  return page;
}

/** The code each page shows, once both show one: equal, six digits. */
async function sameCode(newPage: Page, dialog: ReturnType<Page["getByRole"]>) {
  const mine = newPage.getByRole("status", { name: "Code" });
  const theirs = dialog.getByRole("status", { name: "Code" });
  await expect(mine).toHaveText(/^\d{3} \d{3}$/, { timeout: 20_000 });
  await expect(theirs).toHaveText(/^\d{3} \d{3}$/);
  const code = (await mine.textContent())!.trim();
  expect((await theirs.textContent())!.trim()).toBe(code);
  return code;
}

async function showsAll(page: Page, texts: string[]) {
  for (const text of texts) await expect(log(page).getByText(text, { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(BEFORE_JOIN)).toHaveCount(0);
  await expect(page.getByText(BEFORE_JOIN_DM)).toHaveCount(0);
}

test("a new phone approved from Bob's signed-in laptop (codes match) reads every DM, group and sealed-channel message", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const carol = await person(browser, "carol");
  const stamp = Date.now();

  // a classic channel they share (the DM picker offers them to each other), and Bob's sealed channel
  const teamPassword = `team-${stamp}`;
  const teamId = await createChannel(alice.page, "Team", teamPassword);
  await joinAndOpen(bob.page, teamId, teamPassword, "Team");
  await joinAndOpen(carol.page, teamId, teamPassword, "Team");
  const vaultPassword = `vault-${stamp}`;
  const vaultId = await createSealed(bob.page, "Vault", vaultPassword);
  await joinAndOpen(alice.page, vaultId, vaultPassword, "Vault");
  for (const p of [bob.page, alice.page]) await waitInGroup(p);
  const sealed = [`sealed one ${stamp}`, `sealed two ${stamp}`];
  await send(bob.page, sealed[0]);
  await expect(log(alice.page).getByText(sealed[0])).toBeVisible({ timeout: 30_000 });
  await send(alice.page, sealed[1]);
  await expect(log(bob.page).getByText(sealed[1])).toBeVisible({ timeout: 30_000 });

  // a DM with Alice (a few messages), and a group DM
  for (const p of [bob, carol]) await keyPackagesSent(p);
  await startConversation(alice.page, [bob.user.username]);
  await waitLive(alice.page);
  const direct = [`dm one ${stamp}`, `dm two ${stamp}`, `dm three ${stamp}`];
  await send(alice.page, direct[0]);
  await send(alice.page, direct[1]);
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText(direct[1])).toBeVisible({ timeout: 30_000 });
  await send(bob.page, direct[2]);
  await expect(log(alice.page).getByText(direct[2])).toBeVisible({ timeout: 30_000 });
  const group: [string, string] = [`group one ${stamp}`, `group two ${stamp}`];
  await trioWithMessages(alice, carol, bob, group);
  await expect.poll(() => archivedCount(bob.id), { timeout: 20_000 }).toBeGreaterThanOrEqual(7);

  // Bob's new phone asks; his laptop shows the request live, with the phone's browser and the same code
  const phone = await askFromNewDevice(browser, bob.user.username, true);
  const dialog = bob.page.getByRole("dialog", { name: "Approve a new device?" });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await expect(dialog).toContainText("Chrome on Android");
  await expect(dialog).toContainText("Approve only if the new device shows the same code.");
  await sameCode(phone, dialog);
  await expectAccessible(phone, "the new device's code");
  await expectAccessible(bob.page, "Approve a new device?");
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(dialog).toBeHidden();

  // the phone is signed in and reads all of it
  await expect(phone.getByText(`@${bob.user.username}`)).toBeAttached({ timeout: 30_000 });
  const open = async (name: RegExp) => {
    const drawer = phone.getByRole("button", { name: "Show channels" });
    if ((await drawer.isVisible()) && (await drawer.getAttribute("aria-expanded")) === "false") await drawer.click();
    await phone.getByRole("button", { name }).click();
    await waitLive(phone);
  };
  await open(/^# Vault$/);
  await showsAll(phone, sealed);
  await open(new RegExp(`^@ ${alice.user.username}$`));
  await showsAll(phone, direct);
  await open(new RegExp(`^@ (Trio|.*${carol.user.username}.*)$`));
  await showsAll(phone, group);

  // the laptop's Devices section lists the phone
  await bob.page.getByRole("button", { name: "Menu" }).click();
  await bob.page.getByRole("menuitem", { name: "Account" }).click();
  const devices = bob.page.getByRole("dialog", { name: "Account" }).getByRole("list", { name: "Devices" });
  await expect(devices.getByRole("listitem").filter({ hasText: "Chrome on Android" })).toHaveCount(1);

  // Dave, added to the sealed channel afterwards, reads only from his join, as MLS intends.
  const dave = await person(browser, "dave");
  await joinAndOpen(dave.page, vaultId, vaultPassword, "Vault");
  await expect(dave.page.getByText(NOT_A_MEMBER)).toBeVisible({ timeout: 30_000 });
  for (const text of sealed) await expect(log(dave.page).getByText(text)).toHaveCount(0);

  for (const p of [alice, bob, carol, dave]) await p.context.close();
  await phone.context().close();
});

test("a denied request: the new device says so and is not signed in", async ({ browser }) => {
  test.setTimeout(120_000);
  const bob = await person(browser, "bob");
  await waitLive(bob.page);
  const laptop = await askFromNewDevice(browser, bob.user.email, false);
  const dialog = bob.page.getByRole("dialog", { name: "Approve a new device?" });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await expect(dialog).toContainText("Chrome on Linux");
  await sameCode(laptop, dialog);
  await dialog.getByRole("button", { name: "Deny" }).click();
  await expect(dialog).toBeHidden();
  await expect(laptop.getByRole("alert")).toHaveText("The request was denied.", { timeout: 20_000 });
  await expectAccessible(laptop, "the request was denied");
  await expect(laptop.getByText(`@${bob.user.username}`)).toHaveCount(0);
  await laptop.reload();
  await expect(laptop.getByRole("heading", { name: "Sign In" })).toBeVisible({ timeout: 20_000 });
  expect(await laptop.evaluate(() => localStorage.getItem("chatcrypt_keys"))).toBeNull();
  await bob.context.close();
  await laptop.context().close();
});

test("the question closed with Esc: the new device waits for a code again, and Bob approves it after a reload", async ({ browser }) => {
  test.setTimeout(120_000);
  const bob = await person(browser, "bob");
  await waitLive(bob.page);
  const laptop = await askFromNewDevice(browser, bob.user.email, false);
  let dialog = bob.page.getByRole("dialog", { name: "Approve a new device?" });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await sameCode(laptop, dialog);
  await bob.page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  // the request is let go: the new device says it waits (it used to show the old code until it expired)
  await expect(laptop.getByText("The code appears here as soon as your signed-in device shows this request.")).toBeVisible({
    timeout: 20_000,
  });
  await bob.page.reload();
  dialog = bob.page.getByRole("dialog", { name: "Approve a new device?" });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await sameCode(laptop, dialog);
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(laptop.getByText(`@${bob.user.username}`)).toBeAttached({ timeout: 30_000 });
  await bob.context.close();
  await laptop.context().close();
});

test("a passkey that cannot unlock the keys: they come from the signed-in device instead of the password", async ({ browser }) => {
  test.setTimeout(180_000);
  // WebAuthn refuses an IP address as a site's RP ID: these pages open the web app at localhost
  const base = process.env.E2E_BASE_URL!.replace("127.0.0.1", "localhost");
  const alice = await person(browser, "alice", base);
  const text = `read after approval ${Date.now()}`;
  await createChannel(alice.page, "Approved", `ap-${Date.now()}`);
  await send(alice.page, text);
  const first = await virtualAuthenticator(alice.page, false);
  await alice.page.getByRole("button", { name: "Menu", exact: true }).click();
  await alice.page.getByRole("menuitem", { name: "Account" }).click();
  const account = alice.page.getByRole("dialog", { name: "Account" });
  await account.getByLabel("Passkey name").fill("Security key");
  await account.getByRole("button", { name: "Add a passkey" }).click();
  await expect(account.getByRole("status").filter({ hasText: "Passkey added." })).toBeVisible({ timeout: 30_000 });
  await alice.page.keyboard.press("Escape");
  await expect(account).toBeHidden();
  const { credentials } = await first.cdp.send("WebAuthn.getCredentials", { authenticatorId: first.authenticatorId });

  const device = await browser.newContext({ baseURL: base });
  const page = await device.newPage();
  await page.goto("/");
  const second = await virtualAuthenticator(page, false);
  await second.cdp.send("WebAuthn.addCredential", { authenticatorId: second.authenticatorId, credential: credentials[0] });
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  const unlock = page.getByRole("dialog", { name: "Unlock your encryption keys" });
  await expect(unlock.getByLabel("Password")).toBeVisible({ timeout: 20_000 });
  await unlock.getByRole("button", { name: "Approve from another device" }).click();
  await expect(unlock.getByText(OPEN_OTHER)).toBeVisible({ timeout: 20_000 });

  const dialog = alice.page.getByRole("dialog", { name: "Approve a new device?" });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await sameCode(page, dialog);
  await expectAccessible(page, "the unlock dialog's code");
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(unlock).toBeHidden({ timeout: 20_000 });
  await expect(page.getByText(`@${alice.user.username}`)).toBeAttached({ timeout: 20_000 });
  await page.getByRole("button", { name: "# Approved", exact: true }).click();
  await expect(log(page).getByText(text)).toBeVisible({ timeout: 20_000 });
  await alice.context.close();
  await device.close();
});
