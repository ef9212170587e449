import { randomBytes } from "node:crypto";
import { expect, filesContaining, signIn, test, signOut } from "./fixtures";
import { createChannel, joinAndOpen, log, openNotificationSettings, person, send, waitLive } from "./helpers";

const secret = (label: string) => `${label}-${randomBytes(6).toString("hex")}`;

test("keyring: every channel reads on a second device without a password; a join on B reads on A; sign-out clears A", async ({
  browser,
}) => {
  const bob = await person(browser, "bob");
  const alice = await person(browser, "alice");
  const passwords = { first: secret("kr-first"), second: secret("kr-second"), third: secret("kr-third"), fourth: secret("kr-fourth") };

  // On browser A, Alice creates two channels and joins Bob's third.
  await createChannel(alice.page, "Keyring One", passwords.first);
  await send(alice.page, "first channel history");
  await createChannel(alice.page, "Keyring Two", passwords.second);
  await send(alice.page, "second channel history");
  const thirdId = await createChannel(bob.page, "Keyring Three", passwords.third);
  await send(bob.page, "third channel history");
  await joinAndOpen(alice.page, thirdId, passwords.third, "Keyring Three");
  await expect(log(alice.page).getByText("third channel history")).toBeVisible();

  // Browser B: a fresh context, sign-in only. All three read without any channel password typed.
  const contextB = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, permissions: ["clipboard-read", "clipboard-write"] });
  const pageB = await contextB.newPage();
  await signIn(pageB, alice.user);
  await expect(pageB.getByText(`@${alice.user.username}`)).toBeVisible({ timeout: 20_000 });
  for (const [name, text] of [
    ["Keyring One", "first channel history"],
    ["Keyring Two", "second channel history"],
    ["Keyring Three", "third channel history"],
  ]) {
    await pageB.getByRole("button", { name: `# ${name}`, exact: true }).click();
    await expect(pageB.getByRole("heading", { name: `# ${name}` })).toBeVisible();
    await expect(log(pageB).getByText(text)).toBeVisible({ timeout: 20_000 });
    await expect(pageB.getByText("Channel password not found")).toHaveCount(0);
  }

  // A channel Alice joins on B reads on A after a reload.
  const fourthId = await createChannel(bob.page, "Keyring Four", passwords.fourth);
  await send(bob.page, "fourth channel history");
  await joinAndOpen(pageB, fourthId, passwords.fourth, "Keyring Four");
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Keyring Four", exact: true }).click();
  await waitLive(alice.page);
  await expect(log(alice.page).getByText("fourth channel history")).toBeVisible({ timeout: 20_000 });
  await expect(alice.page.getByText("Channel password not found")).toHaveCount(0);

  // Signing out on A leaves no channel secret and no key bundle there.
  await signOut(alice.page);
  await expect(alice.page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  const stored = await alice.page.evaluate(() => Object.keys(localStorage));
  expect(stored.filter((k) => k.startsWith("channel_password_") || k.startsWith("channel_kdf_"))).toEqual([]);
  expect(stored).not.toContain("chatcrypt_keys");

  // Signing in again brings every channel back from the keyring.
  await signIn(alice.page, alice.user);
  await alice.page.getByRole("button", { name: "# Keyring Two", exact: true }).click();
  await expect(log(alice.page).getByText("second channel history")).toBeVisible({ timeout: 20_000 });

  // Canary: no channel password chosen here is anywhere in PocketBase's data directory.
  const dataDir = process.env.E2E_PB_DATA!;
  for (const password of Object.values(passwords)) expect(filesContaining([dataDir], password)).toEqual([]);
  await contextB.close();
  await alice.context.close();
  await bob.context.close();
});

test("encrypted settings: keywords and cities stay in the browser, and follow the user to another device", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const keyword = secret("canarykw");

  await alice.page.getByRole("button", { name: "Menu" }).click();
  await alice.page.getByRole("menuitem", { name: "Set World Clock" }).click();
  const clockDialog = alice.page.getByRole("dialog", { name: "World Clock Settings" });
  await clockDialog.getByLabel("Singapore").check();
  await clockDialog.getByRole("button", { name: "Save" }).click();
  await expect(clockDialog).toBeHidden();

  await createChannel(alice.page, "Settings Room", secret("pw"));
  await openNotificationSettings(alice.page);
  const dialog = alice.page.getByRole("dialog", { name: "Notification Settings" });
  await dialog.getByLabel("New keyword").fill(keyword);
  await dialog.getByRole("button", { name: "Add keyword" }).click();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();

  // Another device opens the same settings.
  const contextB = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const pageB = await contextB.newPage();
  await signIn(pageB, alice.user);
  await expect(pageB.getByRole("list", { name: "World clock" })).toContainText("Singapore", { timeout: 20_000 });
  await pageB.getByRole("button", { name: "# Settings Room", exact: true }).click();
  await openNotificationSettings(pageB);
  await expect(pageB.getByRole("dialog", { name: "Notification Settings" }).getByText(keyword)).toBeVisible();

  // Neither the keyword nor the chosen city's settings are in the clear on the server.
  const dataDir = process.env.E2E_PB_DATA!;
  expect(filesContaining([dataDir], keyword)).toEqual([]);
  expect(filesContaining([dataDir], "Singapore")).toEqual([]);
  await contextB.close();
  await alice.context.close();
});

test("a query-form invite's key leaves the address before the page loads anything else", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  const canary = secret("invitekey");
  // The address as it stands when the first stylesheet or script element appears in the document.
  await page.addInitScript(() => {
    const seen = new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof HTMLLinkElement || (node instanceof HTMLScriptElement && node.src)) {
            (window as unknown as { __addressAtFirstLoad?: string }).__addressAtFirstLoad ??= location.href;
            seen.disconnect();
            return;
          }
        }
      }
    });
    seen.observe(document, { childList: true, subtree: true });
  });
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  await page.goto(`/?invite=123e4567-e89b-42d3-a456-426614174000&key=${canary}`);
  await expect(page.getByText("End-to-end encrypted messaging")).toBeVisible();
  const early = await page.evaluate(() => (window as unknown as { __addressAtFirstLoad?: string }).__addressAtFirstLoad);
  expect(early).toBeTruthy();
  expect(new URL(early!).search).not.toContain(canary);
  expect(new URL(page.url()).search).not.toContain(canary);
  expect(requests.slice(1).filter((url) => url.includes(canary))).toEqual([]);
  // The invite itself is still understood (it is kept as a pending invite for after sign-in).
  expect(await page.evaluate(() => sessionStorage.getItem("pendingInvite"))).toContain(canary);
  await context.close();
});
