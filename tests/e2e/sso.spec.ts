import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { expect, filesContaining, notNowRecoveryKey, test } from "./fixtures";
import { findPerson, openConsole } from "./admin-helpers";
import { createChannel, log, person, send } from "./helpers";
import {
  BASE,
  choosePassphrase,
  device,
  providerAccount as accountAt,
  setUpEncryption,
  signInWithProvider,
  superuser,
  useProvider,
} from "./sso-helpers";

// Single sign-on with a real OpenID Connect provider on loopback (tools/oidc-provider/; ADRs 63, 64, 81):
// Alice's browser has a platform passkey with PRF, so her first sign-in sets up encryption with it first,
// then an encryption passphrase for other devices, and she reads her channel; her second device is
// approved from the first (the same code on both); her third, without a passkey, unlocks with the
// passphrase. Carol chooses the passphrase instead, adds the passkey after, and the passkey unlocks her
// keys once the browser lost them. Dana's password account links single sign-on with its password and
// keeps its keys. The provider disables Bob (a browser without a platform passkey: the passphrase
// first): his open page signs out, saying why, and his next sign-in is refused. Axe on every screen of
// the first sign-in, the link and the unlock. The canary: Alice's passphrase, message and private
// keys in no request, nowhere in our data directory or logs, nor in the provider's output. The
// settings users get: the minute check is not shortened.

const GONE = "This account was deactivated by the identity provider.";
const provider = useProvider();
const providerAccount = (prefix: string) => accountAt(provider(), prefix);

test("Alice signs in with single sign-on, sets up a passkey, and unlocks two more devices by approval and by passphrase", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const alice = await providerAccount("alice");
  const passphrase = "amber kettle orbit meadow 42";
  const stamp = Date.now();

  const requests: string[] = [];
  const first = await device(browser, true, requests);
  await signInWithProvider(first.page, alice);
  // a browser with a platform passkey with PRF: the passkey first, then a passphrase for other devices
  await expect(first.page.getByRole("heading", { name: "Set up encryption" })).toBeVisible({ timeout: 20_000 });
  await expect(first.page.getByLabel("Encryption passphrase", { exact: true })).toHaveCount(0);
  await expectAccessible(first.page, "single sign-on: set up encryption with a passkey");
  await first.page.getByRole("button", { name: "Set up with a passkey" }).click();
  await expect(first.page.getByRole("heading", { name: "Add an encryption passphrase" })).toBeVisible({ timeout: 30_000 });
  await expectAccessible(first.page, "single sign-on: the passphrase after the passkey");
  await choosePassphrase(first.page, passphrase);
  await first.page.getByRole("button", { name: "Save passphrase" }).click();
  await expect(first.page.getByRole("dialog", { name: "Save your recovery key" })).toBeVisible({ timeout: 30_000 });
  await notNowRecoveryKey(first.page);
  await expect(first.page.getByText(`@${alice.username}`)).toBeAttached({ timeout: 30_000 });
  await createChannel(first.page, "Team", `team-${stamp}`);
  const hello = `hello from sso ${stamp}`;
  await send(first.page, hello);
  await expect(log(first.page).getByText(hello)).toBeVisible({ timeout: 20_000 });

  // the second device: the provider signs her in, the laptop approves it, the same code on both
  const second = await device(browser, false, requests);
  await signInWithProvider(second.page, alice);
  await expect(second.page.getByRole("heading", { name: "Unlock your encryption keys" })).toBeVisible({ timeout: 20_000 });
  await expectAccessible(second.page, "single sign-on: unlock");
  await second.page.getByRole("button", { name: "Approve from another device" }).click();
  const dialog = first.page.getByRole("dialog", { name: "Approve a new device?" });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  const mine = second.page.getByRole("status", { name: "Code" });
  await expect(mine).toHaveText(/^\d{3} \d{3}$/, { timeout: 20_000 });
  await expect(dialog.getByRole("status", { name: "Code" })).toHaveText((await mine.textContent())!.trim());
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(second.page.getByText(`@${alice.username}`)).toBeAttached({ timeout: 30_000 });
  await second.page.getByRole("button", { name: /^# Team$/ }).click();
  await expect(log(second.page).getByText(hello)).toBeVisible({ timeout: 30_000 });

  // the third device, without a passkey: the passphrase, once
  const third = await device(browser, false, requests);
  await signInWithProvider(third.page, alice);
  await expect(third.page.getByRole("heading", { name: "Unlock your encryption keys" })).toBeVisible({ timeout: 20_000 });
  await third.page.getByLabel("Encryption passphrase").fill("not my passphrase at all");
  await third.page.getByRole("button", { name: "Unlock", exact: true }).click();
  await expect(third.page.getByText("This passphrase does not unlock your encryption keys. Check it and try again.")).toBeVisible();
  await third.page.getByLabel("Encryption passphrase").fill(passphrase);
  await third.page.getByRole("button", { name: "Unlock", exact: true }).click();
  await expect(third.page.getByText(`@${alice.username}`)).toBeAttached({ timeout: 30_000 });
  await third.page.getByRole("button", { name: /^# Team$/ }).click();
  await expect(log(third.page).getByText(hello)).toBeVisible({ timeout: 30_000 });

  // her private keys as this device keeps them (JWK: the secret part `d`)
  const privateKeys = await first.page.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem("chatcrypt_keys") ?? "{}") as Record<string, { d?: string }>;
    return [stored.ecdhPrivateKey?.d ?? "", stored.rsaPrivateKey?.d ?? ""];
  });
  expect(privateKeys.every((d) => d.length > 40)).toBe(true);
  for (const d of [first, second, third]) await d.context.close();

  // canary: the passphrase, the message and the private keys in no request, nowhere in our data
  // directory or logs, nor in the provider's (its database is in memory; its output is all it keeps)
  const places = [process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!];
  for (const secret of [passphrase, hello, ...privateKeys]) {
    expect(requests.filter((r) => r.includes(secret))).toEqual([]);
    expect(filesContaining(places, secret)).toEqual([]);
    expect(provider().logs()).not.toContain(secret);
  }
});

test("Carol chooses a passphrase instead of the passkey, adds the passkey after, and it unlocks her keys once this browser lost them", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const carol = await providerAccount("carol");
  const laptop = await device(browser, true);
  await signInWithProvider(laptop.page, carol);
  await expect(laptop.page.getByRole("button", { name: "Set up with a passkey" })).toBeVisible({ timeout: 20_000 });
  await laptop.page.getByRole("button", { name: "Use an encryption passphrase instead" }).click();
  await choosePassphrase(laptop.page, "copper lantern saddle river 9");
  await laptop.page.getByRole("button", { name: "Set up encryption" }).click();
  await expect(laptop.page.getByRole("heading", { name: "Add a passkey" })).toBeVisible({ timeout: 30_000 });
  await laptop.page.getByRole("button", { name: "Add a passkey" }).click();
  await notNowRecoveryKey(laptop.page);
  await expect(laptop.page.getByText(`@${carol.username}`)).toBeAttached({ timeout: 30_000 });
  const stamp = Date.now();
  await createChannel(laptop.page, "Notes", `notes-${stamp}`);
  const note = `kept with a passkey ${stamp}`;
  await send(laptop.page, note);
  await expect(log(laptop.page).getByText(note)).toBeVisible({ timeout: 20_000 });

  // the browser's site data is cleared; the platform passkey stays: it signs in and unlocks the keys
  await laptop.context.clearCookies();
  await laptop.page.evaluate(() => localStorage.clear());
  await signInWithProvider(laptop.page, carol);
  await expect(laptop.page.getByRole("heading", { name: "Unlock your encryption keys" })).toBeVisible({ timeout: 20_000 });
  await laptop.page.getByRole("button", { name: "Unlock with a passkey" }).click();
  await expect(laptop.page.getByText(`@${carol.username}`)).toBeAttached({ timeout: 30_000 });
  await laptop.page.getByRole("button", { name: /^# Notes$/ }).click();
  await expect(log(laptop.page).getByText(note)).toBeVisible({ timeout: 30_000 });
  await laptop.context.close();
});

test("Dana's password account links single sign-on with its password once, and keeps its keys and messages", async ({ browser }) => {
  test.setTimeout(180_000);
  const dana = await person(browser, "dana", BASE);
  const stamp = Date.now();
  await createChannel(dana.page, "Plans", `plans-${stamp}`);
  const before = `written before linking ${stamp}`;
  await send(dana.page, before);
  await expect(log(dana.page).getByText(before)).toBeVisible({ timeout: 20_000 });
  const keysOf = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem("chatcrypt_keys") ?? "{}").ecdhPublicKey as string);
  const publicKey = await keysOf(dana.page);
  const account = { username: `dana${randomBytes(3).toString("hex")}`, password: `pw-${randomBytes(9).toString("base64url")}` };
  await provider().addUser({ ...account, email: dana.user.email, name: "Dana" });

  // a new device: the provider vouches for her email, her ChatCrypt password links the two (only its
  // login secret leaves the browser)
  const requests: string[] = [];
  const laptop = await device(browser, false, requests);
  await signInWithProvider(laptop.page, account);
  await expect(laptop.page.getByRole("heading", { name: "Link your account" })).toBeVisible({ timeout: 20_000 });
  await expectAccessible(laptop.page, "single sign-on: link your account");
  await laptop.page.getByLabel("Password").fill("not her password");
  await laptop.page.getByRole("button", { name: "Link and sign in" }).click();
  await expect(
    laptop.page.getByText("This is not the password of the account with this email address. Check it and try again."),
  ).toBeVisible({ timeout: 20_000 });
  await laptop.page.getByLabel("Password").fill(dana.user.password);
  await laptop.page.getByRole("button", { name: "Link and sign in" }).click();
  await expect(laptop.page.getByText(`@${dana.user.username}`)).toBeAttached({ timeout: 30_000 });
  expect(await keysOf(laptop.page)).toBe(publicKey);
  await laptop.page.getByRole("button", { name: /^# Plans$/ }).click();
  await expect(log(laptop.page).getByText(before)).toBeVisible({ timeout: 30_000 });

  // from now on the provider signs her in, and her password unlocks the keys on a new device
  const phone = await device(browser);
  await signInWithProvider(phone.page, account);
  await expect(phone.page.getByRole("heading", { name: "Unlock your encryption keys" })).toBeVisible({ timeout: 20_000 });
  await phone.page.getByLabel("Encryption passphrase").fill(dana.user.password);
  await phone.page.getByRole("button", { name: "Unlock", exact: true }).click();
  await expect(phone.page.getByText(`@${dana.user.username}`)).toBeAttached({ timeout: 30_000 });
  expect(await keysOf(phone.page)).toBe(publicKey);
  for (const d of [dana, laptop, phone]) await d.context.close();
  expect(requests.filter((r) => r.includes(dana.user.password))).toEqual([]);
});

test("the provider disables Bob: his open page signs out saying why, and his next sign-in is refused", async ({ browser }) => {
  test.setTimeout(180_000);
  // (the workspace's owner, before Bob: the first account of a new workspace owns it)
  const admin = await person(browser, "ssoadmin");
  await (await superuser()).collection("profiles").update(admin.id, { role: "owner" });
  const bob = await providerAccount("bob");
  const laptop = await device(browser);
  await signInWithProvider(laptop.page, bob);
  await setUpEncryption(laptop.page, "violet harbour pencil thunder 7", false);
  await expect(laptop.page.getByText(`@${bob.username}`)).toBeAttached({ timeout: 30_000 });

  // An administrator about to issue him a reset code is told what a code does to an account that signs in
  // with single sign-on (it read as for anyone: a new password, nothing of the provider).
  await admin.page.reload();
  await openConsole(admin.page);
  await (await findPerson(admin.page, bob.username)).getByRole("button", { name: `Issue a reset code for ${bob.username}` }).click();
  const question = admin.page.getByRole("dialog", { name: `Issue a reset code for ${bob.username}?` });
  await expect(question).toContainText(`${bob.username} signs in with single sign-on.`);
  await expect(question).toContainText("it also signs them in without the identity provider unless the workspace requires single sign-on");
  await admin.page.keyboard.press("Escape");
  await expect(question).toBeHidden();
  await admin.context.close();

  await provider().disableUser(bob.username);
  // the minute check asks the provider about every linked account: within about a minute
  await expect(laptop.page.getByText(GONE)).toBeVisible({ timeout: 100_000 });
  await expect(laptop.page.getByRole("heading", { name: "Sign In" })).toBeVisible();

  await laptop.page.getByRole("button", { name: "Sign in with Acme ID" }).click();
  await laptop.page.getByLabel("Username").fill(bob.username);
  await laptop.page.getByLabel("Password").fill(bob.password);
  await laptop.page.getByRole("button", { name: "Login" }).click();
  await expect(laptop.page.getByText("username or password wrong")).toBeVisible();
  await laptop.context.close();
});
