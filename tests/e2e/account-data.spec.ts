import { readFileSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { test as base, expect, filesContaining, newUser, signIn, signUp } from "./fixtures";
import {
  createChannel,
  createSealed,
  joinAndOpen,
  keyPackagesSent,
  log,
  openConversation,
  person,
  send,
  startConversation,
  waitLive,
} from "./helpers";
import { mailTest } from "./mail-stack";
import { axe } from "./axe";

// Menu > Account: Export my data, Delete account and Email (docs/decisions/0029-change-email-delete-export.md).

const test = base;

/** The serious and critical axe violations on the page, each named with where it was seen. */
async function seriousViolations(page: Page, where: string) {
  const results = await axe(page)
    .options({ rules: { "label-content-name-mismatch": { enabled: true } } })
    .analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${where}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function openAccount(page: Page) {
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("menuitem", { name: "Account" }).click();
  return page.getByRole("dialog", { name: "Account" });
}

test("Export my data: data.json in the .zip with the contact book and the channels, opened in the browser", async ({ browser }) => {
  const alice = await person(browser, "export");
  await createChannel(alice.page, "Export Alpha", "pw-export-alpha");
  await createChannel(alice.page, "Export Beta", "pw-export-beta");

  const contactName = `Export Contact ${Date.now()}`;
  await alice.page.getByRole("button", { name: "Menu" }).click();
  await alice.page.getByRole("menuitem", { name: "WhatsApp Contacts" }).click();
  const contacts = alice.page.getByRole("dialog", { name: "WhatsApp Contacts" });
  await contacts.getByRole("button", { name: "Add contact" }).click();
  await contacts.getByLabel("Name").fill(contactName);
  await contacts.getByLabel("Phone number").fill("+15551234567");
  await contacts.getByRole("button", { name: "Save contact" }).click();
  await expect(contacts.getByRole("list", { name: "Contacts" })).toContainText(contactName);
  await contacts.getByRole("button", { name: "Close" }).last().click();

  const account = await openAccount(alice.page);
  const section = account.getByRole("region", { name: "Your data" });
  const downloading = alice.page.waitForEvent("download");
  await section.getByRole("button", { name: "Export my data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^chatcrypt-data-${alice.user.username}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
  await expect(section.getByRole("status")).toHaveText(`Your data was saved as ${download.suggestedFilename()}.`);
  const file = JSON.parse(strFromU8(unzipSync(readFileSync((await download.path())!))["data.json"])) as {
    account: { username: string; email: string };
    channels: { name: string; createdByYou: boolean; passwordInKeyring: boolean }[];
    contacts: { name: string; phone: string }[];
    settings: { notifyOnMention: boolean };
    serverKeepsInClear: string[];
  };
  // her address waits for its sign-up link (ADR 82)
  expect(file.account).toMatchObject({ username: alice.user.username, email: "", pendingEmail: alice.user.email.toLowerCase() });
  expect(file.channels.map((c) => c.name).sort()).toEqual(["Export Alpha", "Export Beta"]);
  expect(file.channels.every((c) => c.createdByYou && c.passwordInKeyring)).toBe(true);
  expect(file.contacts).toEqual([{ name: contactName, phone: "+15551234567", added: expect.any(String), updated: expect.any(String) }]);
  expect(typeof file.settings.notifyOnMention).toBe("boolean");
  expect(file.serverKeepsInClear).toContain("email address, and whether it is verified");
  // opened in the browser: the server holds the contact only as ciphertext
  expect(filesContaining([process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!], contactName)).toEqual([]);
  await alice.context.close();
});

test("Delete account: the others still read the messages, from Deleted user; channels go to their first member; the email signs up again", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const alice = await person(browser, "leaver");
  const bob = await person(browser, "stayer");
  const bobsChannel = await createChannel(bob.page, "Stays Open", "pw-stays-open");
  await joinAndOpen(alice.page, bobsChannel, "pw-stays-open", "Stays Open");
  await send(alice.page, "A message that outlives its account");
  await expect(log(bob.page).getByText("A message that outlives its account")).toBeVisible({ timeout: 20_000 });
  // a direct conversation: her page takes her off its list before the account goes (ADR 19)
  await keyPackagesSent(bob);
  await startConversation(alice.page, [bob.user.username]);
  await waitLive(alice.page);
  await send(alice.page, "A direct message that outlives its account");
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText("A direct message that outlives its account")).toBeVisible({ timeout: 20_000 });
  const alicesChannel = await createChannel(alice.page, "Alice Hands Over", "pw-hands-over");
  await joinAndOpen(bob.page, alicesChannel, "pw-hands-over", "Alice Hands Over");
  await createChannel(alice.page, "Alice Alone", "pw-alice-alone");

  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const dm = await admin.collection("channels").getFirstListItem(`direct = true && created_by = "${alice.id}"`);
  const herCommits = async () =>
    (await admin.collection("mls_commits").getList(1, 1, { filter: `channel = "${dm.id}" && sender = "${alice.id}"` })).totalItems;
  const commitsBefore = await herCommits();

  const account = await openAccount(alice.page);
  await account.getByRole("region", { name: "Delete account" }).getByRole("button", { name: "Delete account" }).click();
  const confirm = alice.page.getByRole("dialog", { name: "Delete your account?" });
  await expect(confirm).toContainText("Channels you created are handed over to the member who joined them first");
  await expect(confirm).toContainText('Your messages stay, shown to the others as from "Deleted user".');
  // Esc closes it and nothing happened
  await alice.page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await account.getByRole("region", { name: "Delete account" }).getByRole("button", { name: "Delete account" }).click();
  await confirm.getByLabel("Password").fill("not-the-password");
  await confirm.getByLabel("Password").press("Enter");
  await expect(confirm.getByRole("alert")).toHaveText("Incorrect password.");
  await confirm.getByLabel("Password").fill(alice.user.password);
  await confirm.getByRole("button", { name: "Delete my account" }).click();
  await expect(alice.page.getByRole("heading", { name: "Account deleted" })).toBeVisible({ timeout: 30_000 });
  expect(await alice.page.evaluate(() => localStorage.getItem("chatcrypt_keys"))).toBeNull();
  // her device committed the conversation's list without her before the account went; the commit stays
  expect(await herCommits()).toBe(commitsBefore + 1);

  // Bob, after a reload: her message is there, from "Deleted user"; her channel with him is his now
  await bob.page.reload();
  await bob.page.getByRole("button", { name: "# Stays Open" }).click();
  await waitLive(bob.page);
  await expect(log(bob.page).getByRole("article", { name: "Message from Deleted user" })).toContainText(
    "A message that outlives its account",
  );
  await bob.page.getByRole("button", { name: /^@ / }).click();
  await expect(log(bob.page).getByRole("article", { name: "Message from Deleted user" })).toContainText(
    "A direct message that outlives its account",
    { timeout: 20_000 },
  );
  // nothing he writes there can reach her: the conversation says so in place of its box
  await expect(bob.page.getByText("This person deleted their account: nothing written here can reach them.")).toBeVisible();
  await expect(bob.page.getByLabel("Message", { exact: true })).toHaveCount(0);
  await bob.page.getByRole("button", { name: "# Alice Hands Over" }).click();
  await expect(bob.page.getByRole("heading", { name: "# Alice Hands Over" })).toBeVisible();
  await expect(bob.page.getByRole("button", { name: "# Alice Alone" })).toHaveCount(0);

  // her email signs in no more, and signs up again as a new account
  await signIn(alice.page, alice.user);
  await expect(alice.page.getByRole("alert")).toHaveText("Invalid email or password.");
  await signUp(alice.page, { ...newUser("again"), email: alice.user.email, password: alice.user.password });
  await expect(alice.page.getByRole("button", { name: "# Stays Open" })).toHaveCount(0);

  // the password itself never reached the server
  expect(filesContaining([process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!], alice.user.password)).toEqual([]);
  await alice.context.close();
  await bob.context.close();
});

test("a broken or forged email-change link says so, before asking the password", async ({ page }) => {
  await page.goto("/change-email#token=garbage");
  await expect(page.getByRole("alert")).toHaveText("This link is incomplete. Open the link from the email again.");
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const forged = `${part({ alg: "HS256" })}.${part({ email: "a@example.test", newEmail: "b@example.test", type: "emailChange" })}.c2ln`;
  await page.goto("about:blank");
  await page.goto(`/change-email#token=${forged}`);
  await expect(page.getByRole("alert")).toHaveText("This link is invalid or has expired. Ask for a new one in Menu > Account.");
  await expect(page).not.toHaveURL(/token/);
  await expect(page.getByLabel("Password")).toBeHidden();
  await expect(page.getByRole("link", { name: "Open ChatCrypt" })).toBeVisible();
});

test("the account's sections, the delete dialog and the email-link pages have no serious axe violations, on desktop and phone", async ({
  browser,
}) => {
  const problems: string[] = [];
  const audit = async (page: Page, where: string) => void problems.push(...(await seriousViolations(page, where)));
  for (const viewport of [
    { width: 1400, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport });
    const page = await context.newPage();
    await signUp(page, newUser("axe"));
    const account = await openAccount(page);
    await expect(account.getByRole("region", { name: "Email" })).toBeVisible();
    await audit(page, `${viewport.width}: Account`);
    await account.getByRole("region", { name: "Delete account" }).getByRole("button", { name: "Delete account" }).click();
    await expect(page.getByRole("dialog", { name: "Delete your account?" })).toBeVisible();
    await audit(page, `${viewport.width}: Delete your account?`);
    // Esc closes the top dialog, then the account dialog; focus returns to the menu button
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Delete your account?" })).toBeHidden();
    await expect(account.getByRole("button", { name: "Delete account" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(account).toBeHidden();
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    // (the page of a link that works, with its password field, is audited in the Change email test below)
    await page.goto(`/change-email#token=${part({})}.${part({ email: "a@example.test", newEmail: "b@example.test" })}.c2ln`);
    await expect(page.getByRole("alert")).toBeVisible();
    await audit(page, `${viewport.width}: /change-email, a dead link`);
    await page.goto("/account-deleted");
    await audit(page, `${viewport.width}: /account-deleted`);
    await context.close();
  }
  expect(problems).toEqual([]);
});

// Changing the email address needs mail: its own PocketBase with a loopback SMTP server, and a web
// server whose address is APP_URL (the start of the emailed link), as in verify-email.spec.ts.

mailTest(
  "Change email: a link to the new address, the password on its page; the new address signs in and every channel reads, the old one no more",
  async ({ page, context, browser, stack: { smtp, pb, web } }) => {
    const user = newUser("move");
    const newEmail = `moved.${user.username}@example.test`;
    await signUp(page, user);
    await createChannel(page, "Moving Day", "pw-moving-day");
    await send(page, "Written before the move");
    await createSealed(page, "Sealed Move", "pw-sealed-move");
    await waitLive(page);
    await send(page, "Sealed before the move");
    await expect(log(page).getByText("Sealed before the move")).toBeVisible();

    const account = await openAccount(page);
    const section = account.getByRole("region", { name: "Email" });
    await expect(section).toContainText(`Your email address: ${user.email.toLowerCase()}`);
    await section.getByLabel("New email address").fill(newEmail);
    await section.getByLabel("Password").fill("not-the-password");
    await section.getByRole("button", { name: "Change email" }).click();
    await expect(section.getByRole("alert")).toHaveText("Incorrect password.");
    await section.getByLabel("Password").fill(user.password);
    await section.getByLabel("Password").press("Enter");
    await expect(section.getByRole("status")).toContainText(`We sent a link to ${newEmail}.`);

    await expect.poll(() => smtp.mailsTo(newEmail).length, { timeout: 10_000 }).toBe(1);
    const mail = smtp.mailsTo(newEmail)[0];
    expect(mail.subject).toBe("Confirm your new email address for ChatCrypt");
    const link = /href="([^"]+)"/.exec(mail.html)?.[1] ?? "";
    expect(link).toMatch(new RegExp(`^${web.url}/change-email#token=`));
    // until the link is opened, nothing changed
    expect(smtp.mailsTo(user.email).filter((m) => m.subject !== "Confirm your email address for ChatCrypt")).toHaveLength(0);

    const tab = await context.newPage();
    await tab.goto(link);
    await expect(tab.getByRole("heading", { name: "Change your email address" })).toBeVisible();
    await expect(tab.getByText(`from ${user.email.toLowerCase()} to ${newEmail}`)).toBeVisible();
    await expect(tab).not.toHaveURL(/token/);
    // the page of a link that works, on a desktop and a phone
    const problems: string[] = [];
    for (const viewport of [
      { width: 1400, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await tab.setViewportSize(viewport);
      problems.push(...(await seriousViolations(tab, `${viewport.width}: /change-email`)));
    }
    expect(problems).toEqual([]);
    await tab.getByLabel("Password").fill("not-the-password");
    await tab.getByRole("button", { name: "Confirm new email" }).click();
    await expect(tab.getByRole("alert")).toHaveText("Incorrect password.");
    await tab.getByLabel("Password").fill(user.password);
    await tab.getByRole("button", { name: "Confirm new email" }).click();
    await expect(tab.getByRole("status")).toHaveText(`Your email address is now ${newEmail}. Sign in with it and your password.`, {
      timeout: 20_000,
    });
    await tab.close();
    // the link opened again: said dead at once, no password asked for
    const again = await context.newPage();
    await again.goto(link);
    await expect(again.getByRole("alert")).toHaveText("This link is invalid or has expired. Ask for a new one in Menu > Account.");
    await expect(again.getByLabel("Password")).toBeHidden();
    await again.close();

    // this browser's session ended with the change; the old address signs in no more
    await page.reload();
    await signIn(page, user);
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password.");
    await signIn(page, { email: newEmail, password: user.password });
    await page.getByRole("button", { name: "# Moving Day" }).click();
    await expect(log(page).getByText("Written before the move")).toBeVisible({ timeout: 20_000 });
    // the sealed channel too: this device's MLS state is sealed under keys that did not change
    await page.getByRole("button", { name: "# Sealed Move" }).click();
    await expect(log(page).getByText("Sealed before the move")).toBeVisible({ timeout: 20_000 });

    // a new device: the keys open from their new wrapping, the channel from the keyring
    const device = await browser.newContext({ baseURL: web.url });
    const fresh = await device.newPage();
    await signIn(fresh, { email: newEmail, password: user.password });
    await fresh.getByRole("button", { name: "# Moving Day" }).click();
    await expect(log(fresh).getByText("Written before the move")).toBeVisible({ timeout: 20_000 });
    await device.close();

    // only derived secrets reached the server
    expect(filesContaining([pb.dataDir, web.logDir], user.password)).toEqual([]);
  },
);
