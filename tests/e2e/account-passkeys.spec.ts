import { virtualAuthenticator } from "./authenticator";
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, filesContaining, test, signOut } from "./fixtures";
import { createChannel, log, person, recordRequests, send } from "./helpers";
import { expectAccessible } from "./axe";

// Passkeys (ADR 28) with Chromium's virtual authenticator, driven through the DevTools protocol. WebAuthn
// refuses an IP address as a site's RP ID, so these pages open the web app at localhost.
const BASE = process.env.E2E_BASE_URL!.replace("127.0.0.1", "localhost");
const PASSWORD_ONCE = "This passkey cannot unlock your encryption keys on its own. Enter your password once to unlock them on this device.";

/**
 * Reads, without changing anything, the PRF output the authenticator gives the page (window.__prf,
 * base64url), so the test can look for it everywhere afterwards.
 */
function capturePrf() {
  const found: string[] = [];
  (window as unknown as { __prf: string[] }).__prf = found;
  const note = (credential: Credential | null) => {
    const first = (credential as PublicKeyCredential | null)?.getClientExtensionResults().prf?.results?.first;
    if (first) {
      const bytes = new Uint8Array(first instanceof ArrayBuffer ? first : (first as ArrayBufferView).buffer);
      found.push(
        btoa(String.fromCharCode(...bytes))
          .replace(/\+/g, "-")
          .replace(/\//g, "_")
          .replace(/=+$/, ""),
      );
    }
    return credential;
  };
  // (a page opens on about:blank, which is no secure context: no credentials there to watch)
  if (!navigator.credentials) return;
  const { create, get } = navigator.credentials;
  navigator.credentials.create = (options) => create.call(navigator.credentials, options).then(note);
  navigator.credentials.get = (options) => get.call(navigator.credentials, options).then(note);
}

/**
 * The new device's authenticator holds the same credential, but the DevTools protocol cannot carry a
 * credential's PRF secret (WebAuthn.Credential has no field for it, and an added credential answers no
 * PRF). As a synced passkey would, it answers the PRF output the first device's authenticator gave;
 * everything else (the signature, the server's checks, the unwrapping) is the real thing.
 */
function carryPrf(prfB64url: string) {
  const bytes = Uint8Array.from(atob(prfB64url.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  if (!navigator.credentials) return;
  const { get } = navigator.credentials;
  navigator.credentials.get = async (options) => {
    const credential = (await get.call(navigator.credentials, options)) as PublicKeyCredential | null;
    if (credential && (options?.publicKey?.extensions as { prf?: unknown } | undefined)?.prf) {
      const results = credential.getClientExtensionResults();
      credential.getClientExtensionResults = () => ({ ...results, prf: { results: { first: bytes.slice().buffer } } });
    }
    return credential;
  };
}

/** The forms the PRF output could be written in: base64url, base64, hex. */
function forms(b64url: string): string[] {
  const raw = Buffer.from(b64url, "base64url");
  return [b64url, raw.toString("base64"), raw.toString("base64").replace(/=+$/, ""), raw.toString("hex")];
}

async function openPasskeys(page: Page) {
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  await page.getByRole("menuitem", { name: "Account" }).click();
  const dialog = page.getByRole("dialog", { name: "Account" });
  await expect(dialog.getByRole("heading", { name: "Passkeys" })).toBeVisible();
  return dialog;
}

async function addPasskey(page: Page, name: string) {
  const dialog = await openPasskeys(page);
  await dialog.getByLabel("Passkey name").fill(name);
  await dialog.getByRole("button", { name: "Add a passkey" }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "Passkey added." })).toBeVisible({ timeout: 30_000 });
  return dialog;
}

async function openChannel(page: Page, name: string, text: string) {
  await page.getByRole("button", { name: `# ${name}`, exact: true }).click();
  await expect(page.getByRole("heading", { name: `# ${name}` })).toBeVisible();
  await expect(log(page).getByText(text)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("Channel password not found")).toHaveCount(0);
}

test("a passkey with PRF signs in on a fresh device and unlocks the keys without the password; its PRF output goes nowhere", async ({
  browser,
}) => {
  const sent: string[] = [];
  const alice = await person(browser, "alice", BASE);
  recordRequests(alice.context, sent);
  await alice.context.addInitScript(capturePrf);
  await alice.page.reload();
  const channel = `Passkeys ${randomBytes(3).toString("hex")}`;
  const text = `read with a passkey ${randomBytes(4).toString("hex")}`;
  await createChannel(alice.page, channel, `pk-${randomBytes(6).toString("hex")}`);
  await send(alice.page, text);

  const first = await virtualAuthenticator(alice.page, true);
  const dialog = await addPasskey(alice.page, "Alice's laptop");
  await expect(dialog.getByRole("status").filter({ hasText: "Passkey added." })).toHaveText(
    "Passkey added. It signs you in and unlocks your encryption keys on a new device.",
  );
  // (the keyboard's place is kept through the browser's prompt: still on the button)
  await expect(dialog.getByRole("button", { name: "Add a passkey" })).toBeFocused();
  const item = dialog.getByRole("listitem").filter({ hasText: "Alice's laptop" });
  await expect(item).toContainText("Unlocks your encryption keys");
  await expect(item).toContainText("not used yet");
  await expectAccessible(alice.page, "Account dialog with a passkey");
  const prf = await alice.page.evaluate(() => (window as unknown as { __prf: string[] }).__prf);
  expect(prf.length).toBeGreaterThan(0);
  expect(new Set(prf).size).toBe(1);
  await alice.page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // The same device after signing out (which drops the keys from it): the authenticator's own PRF output unlocks them.
  await signOut(alice.page);
  await expectAccessible(alice.page, "sign-in screen with Sign in with a passkey");
  await alice.page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(alice.page.getByText(`@${alice.user.username}`)).toBeAttached({ timeout: 20_000 });
  await openChannel(alice.page, channel, text);

  // A fresh context: a new device, with the same credential in its authenticator. No password is typed.
  const { credentials } = await first.cdp.send("WebAuthn.getCredentials", { authenticatorId: first.authenticatorId });
  expect(credentials).toHaveLength(1);
  const device = await browser.newContext({ baseURL: BASE });
  recordRequests(device, sent);
  await device.addInitScript(carryPrf, prf[0]);
  const page = await device.newPage();
  await page.goto("/");
  const second = await virtualAuthenticator(page, true);
  await second.cdp.send("WebAuthn.addCredential", { authenticatorId: second.authenticatorId, credential: credentials[0] });
  expect(await page.evaluate(() => localStorage.getItem("chatcrypt_keys"))).toBeNull();
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByText(`@${alice.user.username}`)).toBeAttached({ timeout: 20_000 });
  await expect(page.getByText(PASSWORD_ONCE)).toHaveCount(0);
  await openChannel(page, channel, text);
  await send(page, "sent from the new device");
  await expect(log(alice.page).getByText("sent from the new device")).toBeVisible({ timeout: 20_000 });
  const listed = (await openPasskeys(page)).getByRole("listitem").filter({ hasText: "Alice's laptop" });
  await expect(listed).toContainText("last used");

  // Canary: the PRF output is in no request, no file of PocketBase's data directory and no log.
  expect(sent.some((s) => s.includes("/api/auth/passkey/signin"))).toBe(true);
  expect(sent.some((s) => s.includes("wrappedEcdhPrivateKey"))).toBe(true);
  for (const form of forms(prf[0])) {
    expect(sent.filter((s) => s.includes(form))).toEqual([]);
    expect(filesContaining([process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!], form)).toEqual([]);
  }
  await device.close();
  await alice.context.close();
});

test("a passkey without PRF signs in, then asks for the password once and says why", async ({ browser }) => {
  const alice = await person(browser, "alice", BASE);
  const channel = `No PRF ${randomBytes(3).toString("hex")}`;
  const text = `unlocked by the password ${randomBytes(4).toString("hex")}`;
  await createChannel(alice.page, channel, `np-${randomBytes(6).toString("hex")}`);
  await send(alice.page, text);
  const first = await virtualAuthenticator(alice.page, false);
  // a name of nothing to see (a zero-width space and direction marks) is no name: the default one
  const dialog = await addPasskey(alice.page, "\u200b\u200f\u200e");
  await expect(dialog.getByRole("status").filter({ hasText: "Passkey added." })).toHaveText(
    "Passkey added. It signs you in; on a new device you will enter your password once, because it cannot unlock your encryption keys.",
  );
  await expect(dialog.getByRole("listitem").filter({ hasText: "Passkey 1" })).toContainText("Signs in only");
  const { credentials } = await first.cdp.send("WebAuthn.getCredentials", { authenticatorId: first.authenticatorId });

  const device = await browser.newContext({ baseURL: BASE });
  const page = await device.newPage();
  await page.goto("/");
  const second = await virtualAuthenticator(page, false);
  await second.cdp.send("WebAuthn.addCredential", { authenticatorId: second.authenticatorId, credential: credentials[0] });
  const signInButton = page.getByRole("button", { name: "Sign in with a passkey" });
  await signInButton.click();
  const unlock = page.getByRole("dialog", { name: "Unlock your encryption keys" });
  await expect(unlock.getByText(PASSWORD_ONCE)).toBeVisible({ timeout: 20_000 });
  await expect(unlock.getByLabel("Password")).toBeFocused();
  await expectAccessible(page, "unlock dialog");

  // Esc leaves: the session ends and the sign-in screen says so, focus back on the button.
  await page.keyboard.press("Escape");
  await expect(unlock).toBeHidden();
  await expect(page.getByRole("alert")).toHaveText("Signed out: your encryption keys stayed locked.");
  await expect(signInButton).toBeFocused();
  expect((await page.request.get("/api/channels")).status()).toBe(401);

  // Again; a wrong password is refused in the browser, the right one (Enter) unlocks.
  await signInButton.click();
  await expect(unlock.getByText(PASSWORD_ONCE)).toBeVisible({ timeout: 20_000 });
  await unlock.getByLabel("Password").fill("not the password");
  await unlock.getByLabel("Password").press("Enter");
  await expect(unlock.getByRole("alert")).toHaveText("This password does not unlock your encryption keys. Check it and try again.", {
    timeout: 20_000,
  });
  await unlock.getByLabel("Password").fill(alice.user.password);
  await unlock.getByLabel("Password").press("Enter");
  await expect(unlock).toBeHidden({ timeout: 20_000 });
  await expect(page.getByText(`@${alice.user.username}`)).toBeAttached({ timeout: 20_000 });
  await openChannel(page, channel, text);

  // Removing the passkey: it no longer signs in.
  // (the Account dialog is still open on the first device)
  const passkeys = dialog.getByRole("region", { name: "Passkeys" });
  await passkeys.getByRole("button", { name: "Remove Passkey 1" }).click();
  await expectAccessible(alice.page, "remove confirmation");
  await dialog.getByRole("alertdialog", { name: "Remove passkey" }).getByRole("button", { name: "Remove", exact: true }).click();
  await expect(passkeys.getByRole("status")).toHaveText('Passkey "Passkey 1" removed.');
  await expect(passkeys.getByText("No passkeys yet.")).toBeVisible();
  await signOut(page);
  await signInButton.click();
  await expect(page.getByRole("alert")).toHaveText(
    "This passkey is not registered here. Sign in with your password, then add it again under Account.",
    { timeout: 20_000 },
  );
  // (the focus stays where the keyboard left it, to try again or go on to the password)
  await expect(signInButton).toBeFocused();
  await device.close();
  await alice.context.close();
});

test("at an IP address no passkey is offered: the sign-in screen has no passkey button, and Account > Passkeys says why", async ({
  browser,
}) => {
  // person() opens the web app at 127.0.0.1, where browsers refuse passkeys
  const alice = await person(browser, "ipaddr");
  expect(new URL(alice.page.url()).hostname).toBe("127.0.0.1");
  const dialog = await openPasskeys(alice.page);
  await expect(
    dialog.getByText(
      "Passkeys need the web app at a domain name, such as https://chat.example.com or http://localhost:3000, not an IP address.",
    ),
  ).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Add a passkey" })).toHaveCount(0);
  await alice.page.keyboard.press("Escape");
  await signOut(alice.page);
  await expect(alice.page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  await expect(alice.page.getByRole("button", { name: "Sign in with a passkey" })).toHaveCount(0);

  // At localhost, the same web app offers it.
  const local = await browser.newPage({ baseURL: BASE });
  await local.goto("/");
  await expect(local.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
  await local.close();
  await alice.context.close();
});
