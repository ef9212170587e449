import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { auditLog, findPerson, makeAdmin, openConsole } from "./admin-helpers";
import { expect, NO_ANSWER, signIn } from "./fixtures";
import { createChannel, joinAndOpen, person, type Person } from "./helpers";
import { mailTest as test } from "./mail-stack";
import { openDetail } from "./header-helpers";

// The admin console (ADR 55), on its own PocketBase with SMTP (tests/e2e/mail-stack.ts), so the first
// account is the workspace's owner: the owner finds Bob by part of his name and makes him an admin, Bob
// then has the console; Carol (member) has no menu item and /admin refuses her; Dave made a guest has no
// way to create a channel (and the API answers 403); the test email reaches the SMTP server; members
// panels show roles; "Sign out all devices" ends Carol's session; the console works on a phone.

test.describe.configure({ mode: "serial" });
// a stack of its own, whatever ran before on this worker: its first account is the owner
test.use({ mailStackFor: "admin-console" });

let owner: Person;

const menuItems = async (page: Page) => {
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  const items = await page.getByRole("menu", { name: "Menu" }).getByRole("menuitem").allInnerTexts();
  await page.keyboard.press("Escape");
  return items;
};

test("roles from the console: an admin named, a member refused, a guest without channels, a test email sent", async ({
  browser,
  stack,
}) => {
  test.setTimeout(180_000);
  owner = await person(browser, "owner", stack.web.url);
  const bob = await person(browser, "bob", stack.web.url);
  const carol = await person(browser, "carol", stack.web.url);
  const dave = await person(browser, "dave", stack.web.url);
  const su = await superuserClient(stack.pb.url, stack.pb.superuser);
  expect((await su.collection("profiles").getOne(owner.id)).role).toBe("owner");

  // The owner opens the console from the menu; as the only owner, her own role cannot change, and says why.
  await openConsole(owner.page);
  const ownRole = (await findPerson(owner.page, owner.user.username)).getByRole("combobox", {
    name: `Change role for ${owner.user.username}`,
  });
  await expect(ownRole).toBeDisabled();
  await expect(ownRole).toHaveAccessibleDescription(
    "The workspace must keep an owner: name another owner before changing this one's role.",
  );

  // She finds Bob by part of his name and makes him an admin.
  const bobEntry = await findPerson(owner.page, bob.user.username);
  await expect(bobEntry.getByRole("definition").first()).toHaveText("Member");
  await bobEntry.getByRole("combobox", { name: `Change role for ${bob.user.username}` }).selectOption("admin");
  const confirm = owner.page.getByRole("dialog", { name: `Make ${bob.user.username} Admin?` });
  await confirm.getByRole("button", { name: "Change role" }).click();
  await expect(confirm).toBeHidden();
  await expect(owner.page.getByRole("status").getByText(`${bob.user.username} is now Admin.`)).toBeVisible();
  await expect(bobEntry.getByRole("definition").first()).toHaveText("Admin");

  // Bob now has the console; Carol, a member, has no menu item and /admin refuses her.
  await bob.page.reload();
  await openConsole(bob.page);
  await expect(bob.page.getByRole("region", { name: "People" })).toBeVisible();
  expect(await menuItems(carol.page)).not.toContain("Admin console");
  await carol.page.goto("/admin");
  await expect(carol.page.getByRole("alert")).toHaveText("Only an administrator can open the admin console.");
  await expect(carol.page.getByRole("list", { name: "People" })).toHaveCount(0);
  await carol.page.goto("/");

  // The owner makes Dave a guest: from the keyboard, each arrow key asks first (Esc keeps the role, and
  // the focus); confirmed, no create button for him.
  const daveEntry = await findPerson(owner.page, dave.user.username);
  const daveRole = daveEntry.getByRole("combobox", { name: `Change role for ${dave.user.username}` });
  await daveRole.focus();
  await owner.page.keyboard.press("ArrowDown");
  const makeGuest = owner.page.getByRole("dialog", { name: `Make ${dave.user.username} Guest?` });
  await expect(makeGuest).toContainText("will join channels only through an invite");
  await expect(makeGuest).toContainText("The channels they are in now stay theirs");
  await owner.page.keyboard.press("Escape");
  await expect(makeGuest).toBeHidden();
  await expect(daveRole).toBeFocused();
  await expect(daveRole).toHaveValue("member");
  await expect(daveEntry.getByRole("definition").first()).toHaveText("Member");
  await daveRole.selectOption("guest");
  await makeGuest.getByRole("button", { name: "Change role" }).click();
  await expect(owner.page.getByRole("status").getByText(`${dave.user.username} is now Guest.`)).toBeVisible();
  await expect(daveRole).toBeFocused();
  await dave.page.reload();
  await expect(dave.page.getByText("You are not in any channel yet. Join one with its invite link.")).toBeVisible({ timeout: 20_000 });
  // (a guest joins through an invite only: no join by ID and password is offered either)
  await expect(dave.page.getByRole("button", { name: "Join", exact: true })).toHaveCount(0);
  await expect(dave.page.getByRole("button", { name: "Create", exact: true })).toHaveCount(0);
  await expect(dave.page.getByRole("button", { name: "Create a channel" })).toHaveCount(0);
  const refused = await dave.page.evaluate(async () => {
    const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";
    const body = { id: crypto.randomUUID(), name: "Mine", verifier: "a".repeat(43), ecdhPublicKey: "A".repeat(160), kdfIterations: 600000 };
    const res = await fetch("/api/channels", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body),
    });
    return { status: res.status, message: ((await res.json()) as { message: string }).message };
  });
  expect(refused).toEqual({ status: 403, message: "Guests cannot create channels." });
  // Looked up by name, someone he shares no channel with is out of reach, and the picker says why at once.
  await dave.page.getByRole("button", { name: "New message" }).click();
  const davePicker = dave.page.getByRole("dialog", { name: "New message" });
  await davePicker.getByLabel("Find by username").fill(carol.user.username);
  await davePicker.getByRole("button", { name: "Look up" }).click();
  await expect(davePicker.getByText("Guests can message only people they share a channel with.")).toBeVisible();
  await expect(davePicker.getByRole("checkbox", { name: carol.user.username })).toHaveCount(0);
  await dave.page.keyboard.press("Escape");

  // A test email reaches the SMTP server.
  const mail = owner.page.getByRole("region", { name: "Mail" });
  await expect(mail.getByText(`${stack.smtp.host}:${stack.smtp.port}`)).toBeVisible();
  await mail.getByRole("button", { name: "Send a test email" }).click();
  await expect(mail.getByRole("status")).toHaveText(`Test email sent to ${owner.user.email}.`);
  expect(stack.smtp.mailsTo(owner.user.email).map((m) => m.subject)).toContain("ChatCrypt test email");
  const audited = await su.collection("audit_log").getFullList({ filter: 'action = "mail.test_sent"' });
  expect(audited.map((r) => [r.actor, r.details])).toEqual([[owner.id, { sent: true }]]);

  // Members panels show the role beside the name.
  await owner.page.goto("/");
  const channelId = await createChannel(owner.page, "Roles", "roles-password-1");
  await bob.page.goto("/");
  await joinAndOpen(bob.page, channelId, "roles-password-1", "Roles");
  await openDetail(bob.page, "Members");
  const members = bob.page.getByRole("complementary", { name: "Members" });
  await expect(members.getByRole("listitem").filter({ hasText: `@${owner.user.username}` })).toContainText("Owner");
  await expect(members.getByRole("listitem").filter({ hasText: `@${bob.user.username}` })).toContainText("Admin");
  // ... and so does the people picker, with "Deactivated" for a deactivated account.
  await su.collection("profiles").update(owner.id, { deactivated: true });
  await bob.page.getByRole("button", { name: "New message" }).click();
  const picker = bob.page.getByRole("dialog", { name: "New message" });
  await expect(picker.getByRole("listitem").filter({ hasText: owner.user.username })).toContainText("OwnerDeactivated");
  await bob.page.keyboard.press("Escape");
  await su.collection("profiles").update(owner.id, { deactivated: false });

  // Bob (admin) signs Carol out of all her devices: her open page goes to the sign-in screen.
  const adminPage = await bob.context.newPage();
  await adminPage.goto("/admin");
  const entry = await findPerson(adminPage, carol.user.username);
  await entry.getByRole("button", { name: `Sign out all devices of ${carol.user.username}` }).click();
  await adminPage
    .getByRole("dialog", { name: `Sign ${carol.user.username} out of all devices?` })
    .getByRole("button", { name: "Sign out all devices" })
    .click();
  await expect(adminPage.getByRole("status").getByText(`${carol.user.username} was signed out of 1 device.`)).toBeVisible();
  await expect(carol.page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible({ timeout: 15_000 });
  // (she is told who did it: it was not her own doing on another device)
  await expect(carol.page.getByText("An administrator signed you out of all devices. Please sign in again.")).toBeVisible();
  // (still after a reload, until she signs in)
  await carol.page.reload();
  await expect(carol.page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  await expect(carol.page.getByText("An administrator signed you out of all devices. Please sign in again.")).toBeVisible();

  // "Deactivate" asks first; the person's status then says so and "Reactivate" gives the account back.
  await entry.getByRole("button", { name: `Deactivate ${carol.user.username}` }).click();
  const deactivate = adminPage.getByRole("dialog", { name: `Deactivate ${carol.user.username}?` });
  await deactivate.getByRole("button", { name: "Deactivate" }).click();
  await expect(adminPage.getByRole("status").getByText(`${carol.user.username} was deactivated.`)).toBeVisible();
  const deactivated = await findPerson(adminPage, carol.user.username);
  await expect(deactivated).toContainText("Deactivated");
  await deactivated.getByRole("button", { name: `Reactivate ${carol.user.username}` }).click();
  await expect(adminPage.getByRole("status").getByText(`${carol.user.username} was reactivated.`)).toBeVisible();
  await expect(await findPerson(adminPage, carol.user.username)).toContainText("Active");

  for (const p of [bob, carol, dave]) await p.context.close();
});

test("a role or who may create channels, changed in the console, reaches the person's open page without a reload", async ({
  browser,
  stack,
}) => {
  test.setTimeout(120_000);
  const erin = await person(browser, "erin", stack.web.url);
  const frank = await person(browser, "frank", stack.web.url);
  const ownerContext = await browser.newContext({ baseURL: stack.web.url });
  const console_ = await ownerContext.newPage();
  await signIn(console_, owner.user);
  await openConsole(console_);
  const create = (p: Person) => p.page.getByRole("button", { name: "Create", exact: true });
  for (const p of [erin, frank]) {
    await expect(p.page.getByRole("button", { name: "Join", exact: true })).toBeAttached({ timeout: 20_000 });
    await expect(create(p)).toBeVisible();
  }
  expect(await menuItems(erin.page)).not.toContain("Admin console");

  // Erin made an admin: her open page's menu offers the console at once, and it opens (in a tab of its own).
  await makeAdmin(console_, erin.user.username);
  await expect.poll(() => menuItems(erin.page)).toContain("Admin console");
  const erinConsole = await erin.context.newPage();
  await erinConsole.goto("/");
  await openConsole(erinConsole);
  await expect(erinConsole.getByText(`Signed in as ${erin.user.username} (Admin)`)).toBeVisible();

  // "Admins only": Frank's "Create" goes, Erin (admin) keeps hers; "Everyone" brings his back.
  const setting = console_.getByRole("group", { name: "Who can create channels" });
  await setting.getByLabel("Admins only").check();
  await expect(setting.getByRole("status")).toHaveText("Saved: only administrators can create channels.");
  await expect(create(frank)).toHaveCount(0);
  await expect(
    frank.page.getByText("You are not in any channel yet. Join one with its invite link, or its ID and password."),
  ).toBeVisible();
  await expect(create(erin)).toBeVisible();
  await setting.getByLabel("Everyone").check();
  await expect(setting.getByRole("status")).toHaveText("Saved: everyone except guests can create channels.");
  await expect(create(frank)).toBeVisible();

  // Erin a member again: the menu item goes; made a guest, "Create" goes too.
  const erinEntry = await findPerson(console_, erin.user.username);
  await erinEntry.getByRole("combobox", { name: `Change role for ${erin.user.username}` }).selectOption("member");
  await console_
    .getByRole("dialog", { name: `Make ${erin.user.username} Member?` })
    .getByRole("button", { name: "Change role" })
    .click();
  await expect(console_.getByRole("status").getByText(`${erin.user.username} is now Member.`)).toBeVisible();
  await expect.poll(() => menuItems(erin.page)).not.toContain("Admin console");
  // Her console, still open, says so at her next search (the server refuses it), rather than a
  // refusal in each section.
  await erinConsole.getByLabel("Search people").fill(frank.user.username);
  await expect(erinConsole.getByRole("alert")).toHaveText("Only an administrator can open the admin console.");
  await expect(erinConsole.getByRole("list", { name: "People" })).toHaveCount(0);
  await erinEntry.getByRole("combobox", { name: `Change role for ${erin.user.username}` }).selectOption("guest");
  await console_
    .getByRole("dialog", { name: `Make ${erin.user.username} Guest?` })
    .getByRole("button", { name: "Change role" })
    .click();
  await expect(console_.getByRole("status").getByText(`${erin.user.username} is now Guest.`)).toBeVisible();
  await expect(create(erin)).toHaveCount(0);
  await expect(create(frank)).toBeVisible();

  for (const context of [ownerContext, erin.context, frank.context]) await context.close();
});

test("the console after a failed first reading offers Try again; its audit log says what changed and keeps the focus on its pages", async ({
  browser,
  stack,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  consoleErrors.allow(NO_ANSWER);
  const context = await browser.newContext({ baseURL: stack.web.url });
  const page = await context.newPage();
  await signIn(page, owner.user);
  await expect(page.getByRole("button", { name: "Menu", exact: true })).toBeVisible({ timeout: 20_000 });

  // People and Invites cannot be read the first time: each says why and offers "Try again" (no
  // "Loading ..." left beside the error).
  let cut = true;
  await page.route(/\/api\/admin\/(people|invites)/, (route) => (cut ? route.abort("connectionreset") : route.fallback()));
  await openConsole(page);
  const people = page.getByRole("region", { name: "People" });
  await expect(people.getByRole("alert")).toBeVisible();
  await expect(people.getByText("Loading people...")).toHaveCount(0);
  const invites = page.getByRole("region", { name: "Invites" });
  await expect(invites.getByRole("alert")).toHaveText("The invites could not be loaded. Please try again.");
  cut = false;
  await people.getByRole("button", { name: "Try again" }).click();
  await expect(people.getByRole("list", { name: "People" })).toBeVisible();
  await expect(people.getByRole("alert")).toHaveCount(0);
  await invites.getByRole("button", { name: "Try again" }).click();
  await expect(invites.getByRole("alert")).toHaveCount(0);

  // The audit log says which role and which setting changed (the tests before made Bob an admin and
  // set "Admins only" and back).
  const { entries } = await auditLog(page);
  const row = (text: string) => entries.getByRole("row").filter({ hasText: "role.changed" }).filter({ hasText: text }).first();
  for (const change of ["Member to Admin", "Admin to Member", "Member to Guest"]) await expect(row(change)).toBeVisible();
  const setting = (text: string) => entries.getByRole("row").filter({ hasText: "settings.changed" }).filter({ hasText: text }).first();
  for (const change of ["Everyone to Admins only", "Admins only to Everyone"])
    await expect(setting(`Who can create channels: ${change}`)).toBeVisible();

  // More than a page of entries: "Older" pressed to the last page keeps the keyboard's focus.
  await page.evaluate(async () => {
    const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";
    for (let i = 0; i < 50; i++)
      await fetch("/api/admin/settings", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ whoCanCreateChannels: i % 2 ? "everyone" : "admins" }),
      });
  });
  await auditLog(page);
  const pages = page.getByRole("navigation", { name: "Audit log pages" });
  await expect(pages).toContainText(/Page 1 of \d+/);
  const last = Number(/Page 1 of (\d+)/.exec((await pages.textContent()) ?? "")?.[1]);
  const older = pages.getByRole("button", { name: "Older" });
  await older.focus();
  for (let n = 2; n <= last; n++) {
    await page.keyboard.press("Enter");
    await expect(pages).toContainText(`Page ${n} of ${last}`);
  }
  await expect(older).toBeFocused();
  await expect(older).toHaveAttribute("aria-disabled", "true");
  await expect(page.locator("body")).not.toBeFocused();
  await context.close();
});

test("the console on a phone: every section readable, nothing wider than the screen", async ({ browser, stack }) => {
  const context = await browser.newContext({ baseURL: stack.web.url, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signIn(page, owner.user);
  await expect(page.getByRole("button", { name: "Menu", exact: true })).toBeVisible({ timeout: 20_000 });
  await openConsole(page);
  for (const name of ["People", "Channels", "Mail"]) await expect(page.getByRole("region", { name })).toBeAttached();
  await expect(page.getByRole("table").getByRole("rowheader", { name: "#Roles" })).toBeVisible();
  const entry = await findPerson(page, owner.user.username);
  await expect(entry.getByRole("combobox", { name: `Change role for ${owner.user.username}` })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await context.close();
  await owner.context.close();
});
