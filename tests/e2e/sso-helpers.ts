import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { virtualAuthenticator } from "./authenticator";
import { expectAccessible } from "./axe";
import { expect, notNowRecoveryKey, test } from "./fixtures";
import { recordRequests } from "./helpers";
import { superuserClient } from "../integration/pocketbase";
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startProvider, type RunningProvider } from "../oidc-provider";

// What the single sign-on specs share: a real OpenID Connect provider on loopback (tools/oidc-provider/)
// set up as the workspace's "Acme ID" for the file's tests, its people, and the steps of a sign-in.

// WebAuthn refuses an IP address as a site's RP ID: these pages open the web app at localhost.
export const BASE = process.env.E2E_BASE_URL!.replace("127.0.0.1", "localhost");

export async function superuser() {
  return superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!) as { email: string; password: string });
}

/** The workspace's single sign-on settings: one row (pb_hooks/lib/sso_settings.js). */
export const SETTINGS_ID = "ssosettings0001";

/**
 * Starts the provider before the file's tests and sets it up as the workspace's single sign-on; both
 * go after them (a worker's stack runs one file at a time). Answers the running provider, once started.
 */
export function useProvider(): () => RunningProvider {
  let provider: RunningProvider | undefined;
  test.beforeAll(async () => {
    provider = await startProvider([`${BASE}/auth/sso/callback`]);
    const su = await superuser();
    await su.collection("sso_settings").create({
      id: SETTINGS_ID,
      issuer: provider.issuer,
      client_id: OIDC_CLIENT_ID,
      client_secret: OIDC_CLIENT_SECRET,
      name: "Acme ID",
    });
  });
  test.afterAll(async () => {
    await (
      await superuser()
    )
      .collection("sso_settings")
      .delete(SETTINGS_ID)
      .catch(() => undefined);
    await provider?.stop();
  });
  return () => provider!;
}

/** A person at the provider: a fresh username and password. */
export async function providerAccount(provider: RunningProvider, prefix: string) {
  const username = `${prefix}${randomBytes(3).toString("hex")}`;
  const password = `pw-${randomBytes(9).toString("base64url")}`;
  await provider.addUser({ username, password, email: `${username}@example.com`, name: prefix });
  return { username, password };
}

/** A new browser (a device), optionally with a passkey authenticator with PRF. */
export async function device(
  browser: Browser,
  withAuthenticator = false,
  requests?: string[],
  options: { phone?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: BASE,
    permissions: ["clipboard-read", "clipboard-write"],
    ...(options.phone ? { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } : {}),
  });
  if (requests) recordRequests(context, requests);
  const page = await context.newPage();
  if (withAuthenticator) await virtualAuthenticator(page, true);
  return { context, page };
}

/** "Sign in with Acme ID" (from the start page, or from the page's own address), the provider's login form, and back. */
export async function signInWithProvider(
  page: Page,
  account: { username: string; password: string },
  { from = "/" }: { from?: string | null } = {},
) {
  if (from !== null) await page.goto(from);
  await page.getByRole("button", { name: "Sign in with Acme ID" }).click();
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Login" }).click();
}

/** A new passphrase typed into the fields on screen: too weak first, then strong, then confirmed. */
export async function choosePassphrase(page: Page, passphrase: string) {
  await page.getByLabel("Encryption passphrase", { exact: true }).fill("short");
  await expect(page.getByText("Weak", { exact: true })).toBeVisible();
  await page.getByLabel("Encryption passphrase", { exact: true }).fill(passphrase);
  await expect(page.getByText(/^(Strong|Very strong)$/)).toBeVisible();
  await page.getByLabel("Confirm encryption passphrase").fill(passphrase);
}

/** The first sign-in on a browser without a platform passkey: the passphrase, then a passkey offered. */
export async function setUpEncryption(page: Page, passphrase: string, passkey: boolean) {
  await expect(page.getByRole("heading", { name: "Set up encryption" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("button", { name: "Set up with a passkey" })).toHaveCount(0);
  await expectAccessible(page, "single sign-on: set up encryption with a passphrase");
  await choosePassphrase(page, passphrase);
  await page.getByRole("button", { name: "Set up encryption" }).click();
  await expect(page.getByRole("heading", { name: "Add a passkey" })).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: passkey ? "Add a passkey" : "Not now" }).click();
  await notNowRecoveryKey(page);
}
