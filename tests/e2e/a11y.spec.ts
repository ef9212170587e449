import type { Locator, Page } from "@playwright/test";
import { expect, newUser, openAuth, signUp, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send, waitLive } from "./helpers";
import { solidPng } from "./preview-site";
import { superuserClient } from "../integration/pocketbase";
import { sendFile } from "./send-file";
import { axe } from "./axe";

// axe-core on every screen and every dialog, at desktop, tablet and phone width: any violation of impact
// "serious" or "critical" fails. label-content-name-mismatch is experimental in axe, so it is switched on.

const VIEWPORTS = [
  { name: "desktop", width: 1400, height: 900 },
  { name: "tablet", width: 1024, height: 768 },
  { name: "phone", width: 390, height: 844 },
] as const;

type Found = { where: string; rule: string; impact: string; targets: string[] };

async function audit(page: Page, where: string, found: Found[]) {
  const results = await axe(page)
    .options({ rules: { "label-content-name-mismatch": { enabled: true } } })
    .analyze();
  for (const violation of results.violations) {
    if (violation.impact !== "serious" && violation.impact !== "critical") continue;
    found.push({
      where,
      rule: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => `${node.target.join(" ")}: ${node.failureSummary?.split("\n")[1]?.trim() ?? ""}`),
    });
  }
}

/** On a phone the channels live in a drawer: open it when the control is not on screen. */
async function reveal(page: Page, control: Locator) {
  const toggle = page.getByRole("button", { name: "Show channels" });
  // (decided once the workspace is on the screen, never while it loads: the control, or on a phone the
  // drawer's toggle; the toggle does not exist on wider screens, so a look too early waited for it)
  await expect(control.or(toggle).first()).toBeVisible();
  // A closed drawer is hidden from assistive technology, so its controls are not found at all.
  const box = (await control.isVisible()) ? await control.boundingBox() : null;
  const width = page.viewportSize()?.width ?? 0;
  if (box && box.x >= 0 && box.x + box.width <= width) return;
  await toggle.click();
  await expect(control).toBeInViewport({ ratio: 1 });
}

/** A channel header action: a button on wide screens, an item of "More" (audited open) on narrow ones. */
async function channelAction(page: Page, name: string, found: Found[]) {
  const button = page.getByRole("button", { name, exact: true });
  if (await button.isVisible()) return button.click();
  const details = page.getByRole("button", { name: "Channel details", exact: true });
  await ((await details.isVisible()) ? details : page.getByRole("button", { name: "More", exact: true })).click();
  await audit(page, "channel actions menu", found);
  await page.getByRole("menuitem", { name, exact: true }).click();
}

/** A message's action: its own button on wide screens, else an item of its "More actions" menu (audited open). */
async function messageAction(page: Page, message: Locator, name: string, found: Found[]) {
  await message.hover();
  const button = message.getByRole("button", { name, exact: true });
  if (await button.isVisible()) return button.click();
  await message.getByRole("button", { name: "More actions" }).click();
  await audit(page, "message actions menu", found);
  await page.getByRole("menuitem", { name, exact: true }).click();
}

/** Closes the phone's channel drawer when it is open (it would cover the channel). */
async function closeDrawer(page: Page) {
  if ((await page.locator("nav.sidebar.open").count()) > 0) await page.getByRole("button", { name: "Show channels" }).click();
}

/** A dialog is audited open, then closed with Esc. */
async function auditDialog(page: Page, name: string, found: Found[]) {
  const dialog = page.getByRole("dialog", { name });
  await expect(dialog).toBeVisible();
  await audit(page, `dialog: ${name}`, found);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}

for (const viewport of VIEWPORTS) {
  test(`no serious or critical axe violations on any screen or dialog (${viewport.name} ${viewport.width}x${viewport.height})`, async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const found: Found[] = [];
    const context = await browser.newContext({
      baseURL: process.env.E2E_BASE_URL,
      viewport: { width: viewport.width, height: viewport.height },
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);

    // Signed out: Sign In, Sign Up, and the verification page without a token.
    await openAuth(page);
    // The audit can fail: a button without a name put on the page is reported.
    const control: Found[] = [];
    await page.evaluate(() => document.body.insertAdjacentHTML("beforeend", '<button id="probe" type="button"></button>'));
    await audit(page, "probe", control);
    expect(control.map((f) => f.rule)).toContain("button-name");
    await page.evaluate(() => document.getElementById("probe")?.remove());
    await audit(page, "sign in", found);
    await page.getByRole("button", { name: "Don't have an account? Sign up" }).click();
    await expect(page.getByRole("button", { name: "Sign Up", exact: true })).toBeVisible();
    await audit(page, "sign up", found);
    await page.goto("/verify-email");
    await expect(page.getByRole("heading", { name: "Email verification" })).toBeVisible();
    await audit(page, "verify email", found);
    await page.goto("/reset-password");
    await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
    await expect(page.getByRole("alert")).toBeVisible();
    await audit(page, "reset password (incomplete link)", found);
    await openAuth(page);
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
    await audit(page, "forgot password", found);

    const user = newUser("bob");
    await signUp(page, user);
    await audit(page, "workspace without channels", found);

    // Alice (another device) creates the channel and writes; Bob is the one audited.
    const alice = await person(browser, "alice");
    const password = `a11y-${Date.now()}`;
    const channelId = await createChannel(alice.page, "Accessible", password);
    // Bob is not in it yet: its address says the conversation is not available to him (ADR 61).
    await page.goto(`/c/${channelId}`);
    await expect(page.getByRole("heading", { name: "This conversation is not available to you." })).toBeVisible();
    await audit(page, "conversation not available", found);
    await page.goto("/");

    const createButton = page.getByRole("button", { name: "Create", exact: true });
    await reveal(page, createButton);
    await createButton.click();
    await auditDialog(page, "Create Channel", found);
    const joinButton = page.getByRole("button", { name: "Join", exact: true });
    await reveal(page, joinButton);
    await joinButton.click();
    await auditDialog(page, "Join Channel", found);
    await reveal(page, joinButton);
    await joinAndOpen(page, channelId, password, "Accessible");
    await closeDrawer(page);
    await waitLive(alice.page);
    await audit(page, "channel without messages", found);

    // Translation to Spanish, then messages: text, a link with a preview, a PDF, an image, audio.
    await page.getByRole("button", { name: "Translate", exact: true }).click();
    await audit(page, "translate popover", found);
    await page.getByLabel("Translate incoming messages to").selectOption("ES");
    await page.getByRole("button", { name: "Translate messages" }).click();
    await expect(page.getByRole("button", { name: "Translate: ES" })).toBeVisible();

    await send(alice.page, "The cat is on the table.");
    await send(alice.page, `Have a look: ${process.env.E2E_PREVIEW_ORIGIN}/article?id=${Date.now()}`);
    await sendFile(alice.page, { name: "report.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
    await expect(log(page).getByRole("button", { name: "Download report.pdf" })).toBeVisible({ timeout: 30_000 });
    await sendFile(alice.page, { name: "diagram.png", mimeType: "image/png", buffer: solidPng(64, 48, [0x3b, 0x3b, 0x3b]) });
    await expect(page.locator('img[alt="diagram.png"]')).toBeVisible({ timeout: 30_000 });
    await alice.page.getByRole("button", { name: "Record audio" }).click();
    await alice.page.waitForTimeout(1_500);
    await alice.page.getByRole("button", { name: "Stop recording" }).click();
    await expect(log(page).getByRole("button", { name: /^Play audio message/ })).toBeVisible({ timeout: 30_000 });
    await send(page, "My own message, with its time.");
    await expect(log(page).getByText("gato")).toBeVisible({ timeout: 20_000 });
    await expect(log(page).locator("a.link-preview")).toBeVisible({ timeout: 20_000 });
    await audit(page, "channel with messages (translated text, file, image, audio, link preview)", found);
    await log(page).getByRole("button", { name: "Show original" }).first().click();
    await audit(page, "translated message showing its original", found);

    // Every menu, panel and dialog of the channel and the header.
    const ownMessage = log(page).getByRole("article").last();
    await ownMessage.hover();
    const react = ownMessage.getByRole("button", { name: "React" });
    // (a phone has no React button: its reactions are items of the message's one "More actions" menu)
    if (await react.isVisible()) {
      await react.click();
      await expect(page.getByRole("menu", { name: "React with" })).toBeVisible();
      await audit(page, "message reactions menu", found);
      await page.keyboard.press("Escape");
    }
    await messageAction(page, ownMessage, "Delete", found);
    await auditDialog(page, "Delete Message", found);
    await messageAction(page, ownMessage, "Reply in thread", found);
    await expect(page.getByRole("complementary", { name: "Thread" })).toBeVisible();
    await audit(page, "thread panel", found);
    // (its × on wide screens, Back on a phone, where it fills the screen)
    await page
      .getByRole("complementary", { name: "Thread" })
      .getByRole("button", { name: /^(Close thread|Back)$/ })
      .click();
    await expect(page.getByRole("complementary", { name: "Thread" })).toBeHidden();

    await page.getByRole("button", { name: "Menu", exact: true }).click();
    await expect(page.getByRole("menu", { name: "Menu" })).toBeVisible();
    await audit(page, "header menu", found);
    await page.getByRole("menuitem", { name: "Set World Clock" }).click();
    await auditDialog(page, "World Clock Settings", found);
    await page.getByRole("button", { name: "Menu", exact: true }).click();
    await page.getByRole("menuitem", { name: "WhatsApp Contacts" }).click();
    await page.getByRole("dialog", { name: "WhatsApp Contacts" }).getByRole("button", { name: "Add contact" }).click();
    await auditDialog(page, "WhatsApp Contacts", found);
    await page.getByRole("button", { name: "Menu", exact: true }).click();
    await page.getByRole("menuitem", { name: "Account" }).click();
    await page.getByRole("dialog", { name: "Account" }).getByRole("button", { name: "Create a recovery key" }).click();
    await expect(page.getByRole("dialog", { name: "Save your recovery key" }).getByRole("listitem")).toHaveCount(24);
    await auditDialog(page, "Save your recovery key", found);
    await auditDialog(page, "Account", found);

    await page.getByRole("button", { name: "Menu", exact: true }).click();
    await page.getByRole("menuitem", { name: "Notification settings" }).click();
    await auditDialog(page, "Notification Settings", found);
    await channelAction(page, "Members", found);
    await expect(page.getByRole("complementary", { name: "Members" })).toBeVisible();
    await audit(page, "members panel", found);
    await page.keyboard.press("Escape");
    await channelAction(page, "News Feed", found);
    await expect(page.getByRole("complementary", { name: "News Feed" }).getByRole("listitem").first()).toBeVisible({ timeout: 20_000 });
    await audit(page, "news feed", found);
    await page.keyboard.press("Escape");
    await channelAction(page, "Invite people", found);
    await auditDialog(page, "Invite to #Accessible", found);
    await channelAction(page, "Invite people", found);
    await page.getByRole("dialog", { name: "Invite to #Accessible" }).getByRole("button", { name: "Copy invite link" }).click();
    await expect(page.getByText(/Invite link copied|Copy this invite link/)).toBeVisible();
    await audit(page, "invite link shared (toast)", found);

    const leave = page.getByRole("button", { name: /^Leave/ }).first();
    await reveal(page, leave);
    await leave.click();
    await auditDialog(page, "Leave Channel", found);

    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
    await alice.context.close();
    await context.close();
  });
}

for (const viewport of VIEWPORTS) {
  test(`the admin console: no serious or critical axe violations (${viewport.name} ${viewport.width}x${viewport.height})`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const found: Found[] = [];
    const admin = await person(browser, "admin");
    const member = await person(browser, "member");
    const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
    await su.collection("profiles").update(admin.id, { role: "admin" });
    const page = admin.page;
    await createChannel(page, "Console", `console-${Date.now()}`);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Admin console", level: 1 })).toBeVisible();
    // every section's table (channels, invites, audit log) shown before the audit
    await expect(page.getByRole("table", { name: "Audit log entries" })).toBeVisible();
    await expect(page.getByRole("table").first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Save retention" })).toBeVisible();
    await audit(page, "admin console", found);
    await page.getByLabel("Search people").fill(member.user.username);
    const entry = page.getByRole("list", { name: "People" }).getByRole("listitem", { name: member.user.username });
    await expect(entry).toBeVisible();
    await audit(page, "admin console: a search", found);
    await entry.getByRole("button", { name: `Sign out all devices of ${member.user.username}` }).click();
    await auditDialog(page, `Sign ${member.user.username} out of all devices?`, found);
    await entry.getByRole("button", { name: `Deactivate ${member.user.username}` }).click();
    await auditDialog(page, `Deactivate ${member.user.username}?`, found);
    await member.page.setViewportSize({ width: viewport.width, height: viewport.height });
    await member.page.goto("/admin");
    await expect(member.page.getByRole("alert")).toHaveText("Only an administrator can open the admin console.");
    await audit(member.page, "admin console refused", found);
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
    await admin.context.close();
    await member.context.close();
  });
}
