import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { expect, notNowRecoveryKey, test } from "./fixtures";
import { choosePassphrase, device, providerAccount, signInWithProvider, useProvider } from "./sso-helpers";

// A reload during the first single sign-on's set-up (ADR 63, addendum 2026-12-02), on a phone: once the
// provider's one-time code is used the address is the set-up's own, so a reload never sends the used
// code again. Before the account exists, the page says plainly that nothing was saved and starts again;
// once it exists, a reload goes on with the steps left (the passkey offer, the recovery key with new
// words: the words are never kept in the browser's storage). After a passkey set up encryption, a reload
// at the passphrase goes on to the recovery key.

const provider = useProvider();
const INTERRUPTED = "The page was reloaded before your account was set up, so nothing was saved. Start again to set it up.";
const EXPIRED = "This sign-in has expired or was started in another browser. Start again.";
const SETUP_ADDRESS = /\/auth\/sso\/setup$/;

const recoveryDialog = (page: Page) => page.getByRole("dialog", { name: "Save your recovery key" });
const wordsShown = (page: Page) => recoveryDialog(page).getByRole("list", { name: "Recovery key" }).getByRole("listitem").allInnerTexts();
/** Every value this tab keeps in the browser's storage, one line each. */
const stored = (page: Page) =>
  page.evaluate(() => [localStorage, sessionStorage].flatMap((s) => Object.keys(s).map((k) => `${k}=${s.getItem(k) ?? ""}`)).join("\n"));

/** A new hire's first sign-in on a phone, up to "Set up encryption". */
async function newHire(browser: Parameters<typeof device>[0], prefix: string, withPasskey = false) {
  const hire = await providerAccount(provider(), prefix);
  const { context, page } = await device(browser, withPasskey, undefined, { phone: !withPasskey });
  await signInWithProvider(page, hire);
  await expect(page.getByRole("heading", { name: "Set up encryption" })).toBeVisible({ timeout: 20_000 });
  return { hire, context, page };
}

test("a reload at “Set up encryption” says that nothing was saved, and “Start again” sets up", async ({ browser }) => {
  test.setTimeout(120_000);
  const { hire, context, page } = await newHire(browser, "hire");
  await page.reload();
  await expect(page.getByText(INTERRUPTED)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(EXPIRED)).toHaveCount(0);
  await expect(page).toHaveURL(SETUP_ADDRESS);
  await expectAccessible(page, "single sign-on: the set-up reloaded before the account was made");
  await page.getByRole("link", { name: "Start again" }).click();
  await page.getByLabel("Username").fill(hire.username);
  await page.getByLabel("Password").fill(hire.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("heading", { name: "Set up encryption" })).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(SETUP_ADDRESS);
  await choosePassphrase(page, "quiet harbour violet lantern 8");
  await page.getByRole("button", { name: "Set up encryption" }).click();
  await page.getByRole("button", { name: "Not now" }).click({ timeout: 30_000 });
  await notNowRecoveryKey(page);
  await expect(page.getByText(`@${hire.username}`)).toBeAttached({ timeout: 30_000 });
  await context.close();
});

test("a reload at “Add a passkey” and at the recovery key goes on with the set-up before the workspace", async ({ browser }) => {
  test.setTimeout(120_000);
  const { hire, context, page } = await newHire(browser, "newhire");
  await choosePassphrase(page, "quiet harbour violet lantern 8");
  await page.getByRole("button", { name: "Set up encryption" }).click();
  await expect(page.getByRole("heading", { name: "Add a passkey" })).toBeVisible({ timeout: 30_000 });

  // the account and its keys exist: the passkey offer again, then the recovery key
  await page.reload();
  await expect(page.getByRole("heading", { name: "Add a passkey" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(EXPIRED)).toHaveCount(0);
  await expect(page).toHaveURL(SETUP_ADDRESS);
  await page.getByRole("button", { name: "Not now" }).click();
  await expect(recoveryDialog(page)).toBeVisible({ timeout: 20_000 });
  const first = await wordsShown(page);
  expect(first).toHaveLength(24);

  // at the recovery key: offered again, with new words, before the workspace; neither kept in storage
  await page.reload();
  await expect(recoveryDialog(page)).toBeVisible({ timeout: 20_000 });
  const second = await wordsShown(page);
  expect(second).not.toEqual(first);
  const storage = await stored(page);
  for (const words of [first, second]) {
    expect(storage).not.toContain(words.slice(0, 3).join(" "));
    expect(storage).not.toContain(JSON.stringify(words.slice(0, 3)).slice(1, -1));
  }
  await notNowRecoveryKey(page);
  await expect(page.getByText(`@${hire.username}`)).toBeAttached({ timeout: 30_000 });

  // the set-up is over: a reload opens the workspace, nothing offered again
  await page.reload();
  await expect(page.getByText(`@${hire.username}`)).toBeAttached({ timeout: 30_000 });
  await expect(recoveryDialog(page)).toHaveCount(0);
  await context.close();
});

test("a reload at the passphrase after a passkey goes on to the recovery key", async ({ browser }) => {
  test.setTimeout(120_000);
  const { hire, context, page } = await newHire(browser, "keyhire", true);
  await page.getByRole("button", { name: "Set up with a passkey" }).click();
  await expect(page.getByRole("heading", { name: "Add an encryption passphrase" })).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await expect(recoveryDialog(page)).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(SETUP_ADDRESS);
  await notNowRecoveryKey(page);
  await expect(page.getByText(`@${hire.username}`)).toBeAttached({ timeout: 30_000 });
  await context.close();
});
