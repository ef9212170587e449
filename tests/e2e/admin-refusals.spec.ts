import { expect, signOut, test } from "./fixtures";
import { superuserClient } from "../integration/pocketbase";
import { administrator, auditLog, changeStatus, findPerson, makeAdmin, openConsole } from "./admin-helpers";
import { copyInviteLink, createChannel, person } from "./helpers";

const su = () => superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));

// The admin console when the server says no: an administrator deactivated while their console is open
// sees it end, with why (it went on listing everyone's addresses and the audit log); a refused setting
// shows the server's words (the single sign-on section said "The settings could not be saved." for each).

test("an administrator deactivated with the console open: it ends, saying why, and shows nothing more", async ({ browser }) => {
  const owner = await administrator(browser, "owner");
  const adam = await administrator(browser, "admin", "adam");
  await openConsole(adam.page);
  await expect(adam.page.getByRole("region", { name: "People" })).toBeVisible();
  await openConsole(owner.page);
  await changeStatus(owner.page, adam.user.username, "deactivate");

  const signOuts: string[] = [];
  adam.page.on("request", (r) => r.url().endsWith("/api/auth/signout") && signOuts.push(r.method()));
  // Adam's console in view again (it also asks by itself every 30 s while in view)
  await adam.page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await expect(adam.page.getByRole("alert")).toHaveText("This account was deactivated by an administrator.");
  for (const name of ["People", "Audit log", "Single sign-on"]) await expect(adam.page.getByRole("region", { name })).toHaveCount(0);
  await expect(adam.page.getByText(owner.user.email)).toHaveCount(0);
  await expect.poll(() => adam.page.evaluate(() => localStorage.getItem("chatcrypt_keys"))).toBeNull();
  // (the page's own sign-out, once: its refusal does not end the session again and again)
  await adam.page.waitForTimeout(1_000);
  expect(signOuts.length).toBeLessThanOrEqual(1);
  await adam.page.getByRole("link", { name: "Sign in again" }).click();
  await expect(adam.page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible({ timeout: 20_000 });
});

test("a refused single sign-on setting shows the server's words", async ({ browser }) => {
  const owner = await administrator(browser, "owner", "ssoboss");
  await openConsole(owner.page);
  const sso = owner.page.getByRole("region", { name: "Single sign-on" });
  const save = sso.getByRole("button", { name: "Save single sign-on" });
  await sso.getByLabel("Issuer URL").fill("ftp://example.com");
  await save.click();
  await expect(sso.getByRole("alert")).toHaveText("The issuer must be an https:// address.");
  await sso.getByLabel("Issuer URL").fill("");
  await sso.getByLabel("Allowed email domains").fill("@@@");
  await save.click();
  await expect(sso.getByRole("alert")).toHaveText('"@@@" is not a domain name.');
  await sso.getByLabel("Allowed email domains").fill("");
  await sso.getByLabel("Require single sign-on").check();
  await save.click();
  await expect(sso.getByRole("alert")).toHaveText("Single sign-on needs an issuer and a client id before it can be required.");
  await expect(sso.getByLabel("Provider name")).toHaveAttribute("maxlength", "60");
});

test("Reactivate and an invite's Revoke keep the keyboard's focus; the revoke is said", async ({ browser }) => {
  const owner = await administrator(browser, "owner", "focusboss");
  const carol = await administrator(browser, "admin", "carolfocus");
  await openConsole(owner.page);
  await changeStatus(owner.page, carol.user.username, "deactivate");
  const reactivate = owner.page.getByRole("button", { name: `Reactivate ${carol.user.username}` });
  await reactivate.focus();
  await owner.page.keyboard.press("Enter");
  await expect(owner.page.getByRole("status").getByText(`${carol.user.username} was reactivated.`)).toBeVisible();
  await expect(owner.page.getByRole("button", { name: `Deactivate ${carol.user.username}` })).toBeFocused();

  // an invite made in the chat, revoked in the console by keyboard
  await owner.page.goto("/");
  const name = `Focus ${Date.now() % 100000}`;
  await createChannel(owner.page, name, `focus-${Date.now()}`);
  await copyInviteLink(owner.page);
  await owner.page.goto("/admin");
  const invites = owner.page.getByRole("region", { name: "Invites" });
  const revoke = invites.getByRole("button", { name: new RegExp(`^Revoke the invite to #${name} made by `) });
  await revoke.focus();
  await owner.page.keyboard.press("Enter");
  await expect(invites.getByRole("status")).toHaveText(`The invite to #${name} was revoked.`);
  await expect(invites.getByRole("listitem").filter({ hasText: `#${name}` })).toBeFocused();
  await expect(invites.getByRole("listitem").filter({ hasText: `#${name}` })).toContainText("revoked");
});

test("signed out, the console's address leads to sign-in and, signed in, back to the console's section", async ({ browser }) => {
  const admin = await administrator(browser, "admin", "backadmin");
  await signOut(admin.page);
  await admin.page.goto("/admin#audit");
  await expect(admin.page).toHaveURL(/\/\?console#audit$/);
  await admin.page.getByLabel("Email").fill(admin.user.email);
  await admin.page.getByLabel("Password").fill(admin.user.password);
  await admin.page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(admin.page.getByRole("heading", { name: "Admin console", level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(admin.page).toHaveURL(/\/admin#audit$/);
});

test("a refused change shows the person as they stand now; the audit log gives its time zone and, on a phone, names a finger can tap", async ({
  browser,
}) => {
  const owner = await administrator(browser, "owner", "standboss");
  const adam = await administrator(browser, "admin", "adamstand");
  const carol = await administrator(browser, "admin", "carolstand");
  await su().then((s) => s.collection("profiles").update(carol.id, { role: "member" }));
  await openConsole(adam.page);
  const card = await findPerson(adam.page, carol.user.username);
  await expect(card.getByRole("combobox", { name: `Change role for ${carol.user.username}` })).toHaveValue("member");
  // the owner makes Carol an admin meanwhile; Adam, who still sees a member, tries to deactivate her
  await openConsole(owner.page);
  await makeAdmin(owner.page, carol.user.username);
  await card.getByRole("button", { name: `Deactivate ${carol.user.username}` }).click();
  await adam.page
    .getByRole("dialog", { name: `Deactivate ${carol.user.username}?` })
    .getByRole("button", { name: "Deactivate" })
    .click();
  await expect(adam.page.getByRole("dialog").getByRole("alert")).toHaveText("Only the owner can deactivate an administrator.");
  await expect(card.getByRole("combobox", { name: `Change role for ${carol.user.username}` })).toHaveValue("admin");

  const { entries } = await auditLog(owner.page);
  await expect(entries.getByRole("row").nth(1)).toContainText(/:\d\d (AM |PM )?(UTC|GMT)\b/);
  await owner.page.setViewportSize({ width: 390, height: 844 });
  const name = entries.getByRole("button", { name: /^Show only the entries of / }).first();
  expect((await name.boundingBox())!.height).toBeGreaterThanOrEqual(44);
});

test("a role another administrator changed meanwhile is refused in words; an owner who steps down sees it at once", async ({ browser }) => {
  const owner = await administrator(browser, "owner", "stepdown");
  await administrator(browser, "owner", "stepsecond");
  const xav = await person(browser, "stepxav");
  await openConsole(owner.page);
  const xavEntry = await findPerson(owner.page, xav.user.username);
  await expect(xavEntry.getByRole("combobox", { name: `Change role for ${xav.user.username}` })).toHaveValue("member");
  // another administrator makes Xav an admin while this console shows him a member
  const admin = await su();
  await admin.collection("profiles").update(xav.id, { role: "admin" });
  const xavRole = xavEntry.getByRole("combobox", { name: `Change role for ${xav.user.username}` });
  await xavRole.focus();
  await xavRole.selectOption("guest");
  const asked = owner.page.getByRole("dialog", { name: `Make ${xav.user.username} Guest?` });
  // (the cards, read again after the refusal, come slowly, as from a busy server: the refusal's dialog
  // closes meanwhile all the same)
  let slow = true;
  await owner.page.route("**/api/admin/people?*", async (route) => {
    if (slow) await new Promise((resolve) => setTimeout(resolve, 3_000));
    await route.continue();
  });
  await asked.getByRole("button", { name: "Change role" }).click();
  await expect(asked.getByRole("alert")).toHaveText(
    "This person's role changed meanwhile: they are now Admin. Look again before changing it.",
  );
  expect((await admin.collection("profiles").getOne(xav.id)).role).toBe("admin");
  await owner.page.keyboard.press("Escape");
  await expect(asked).toBeHidden({ timeout: 1_000 });
  await expect(xavRole).toHaveValue("admin");
  // the keyboard's focus is back on the select the change came from, read again
  await expect(xavRole).toBeFocused();
  slow = false;

  // the owner steps down to admin (a second owner keeps the workspace): the console says so at once
  const ownEntry = await findPerson(owner.page, owner.user.username);
  await ownEntry.getByRole("combobox", { name: `Change role for ${owner.user.username}` }).selectOption("admin");
  await owner.page
    .getByRole("dialog", { name: `Make ${owner.user.username} Admin?` })
    .getByRole("button", { name: "Change role" })
    .click();
  await expect(owner.page.getByText(`Signed in as ${owner.user.username} (Admin)`)).toBeVisible();
  for (const p of [owner, xav]) await p.context.close();
});
