import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { superuserClient } from "../integration/pocketbase";
import { expect, signIn, test } from "./fixtures";
import { person } from "./helpers";

// The audit log (docs/decisions/0054-audit-log.md): each person sees their own account's entries in
// Menu > Account > Account activity; the owner and admins download the whole log as JSON Lines. (The
// console's "Audit log" section gets its browser test with the admin console.)

async function openAccount(page: Page) {
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("menuitem", { name: "Account" }).click();
  return page.getByRole("dialog", { name: "Account" });
}

test("Account activity lists the person's sign-up, sign-in and password change, with address and device", async ({ browser }) => {
  const alice = await person(browser, "activity");
  // her second device signs in, and changes the password there
  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await other.newPage();
  await signIn(page, alice.user);
  await expect(page.getByText(`@${alice.user.username}`)).toBeAttached({ timeout: 20_000 });

  const account = await openAccount(page);
  const activity = account.getByRole("region", { name: "Account activity" });
  const entries = activity.getByRole("list", { name: "Account activity" });
  await expect(entries.getByRole("listitem")).toHaveCount(2);
  await expect(entries.getByRole("listitem").nth(0)).toContainText("Signed in");
  await expect(entries.getByRole("listitem").nth(0)).toContainText("signin.succeeded");
  await expect(entries.getByRole("listitem").nth(1)).toContainText("Account created");
  await expect(entries.getByRole("listitem").nth(0)).toContainText(/from [0-9a-f.:]+, Chrome on Linux/);

  const password = account.getByRole("region", { name: "Password" });
  const newPassword = `Canary-audit-${randomBytes(4).toString("hex")}`;
  await password.getByLabel("Current password").fill(alice.user.password);
  await password.getByLabel("New password", { exact: true }).fill(newPassword);
  await password.getByLabel("Confirm new password").fill(newPassword);
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByRole("status")).toHaveText("Your password was changed. Other devices were signed out.", { timeout: 20_000 });

  // the new session reloads the list: the change is on top
  await expect(entries.getByRole("listitem").nth(0)).toContainText("Password changed");
  await expect(entries.getByRole("listitem")).toHaveCount(3);
  await expect(activity).not.toContainText(newPassword);
  await other.close();
});

test("the owner and admins download the audit log as JSON Lines; a member is refused", async ({ browser }) => {
  const bob = await person(browser, "auditor");
  const member = await bob.page.request.get("/api/admin/audit/export");
  expect(member.status()).toBe(403);

  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  await admin.collection("profiles").update(bob.id, { role: "admin" });

  const downloading = bob.page.waitForEvent("download");
  await bob.page.evaluate(() => {
    const link = document.createElement("a");
    link.href = "/api/admin/audit/export";
    link.download = "";
    document.body.appendChild(link);
    link.click();
    link.remove();
  });
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`audit-${new Date().toISOString().slice(0, 10)}.jsonl`);
  const lines = readFileSync((await download.path())!, "utf8")
    .trimEnd()
    .split("\n");
  const entries = lines.map((line) => JSON.parse(line) as { seq: number; action: string; actor: string; hash: string; prev_hash: string });
  expect(entries.length).toBeGreaterThan(1);
  entries.slice(1).forEach((entry, i) => {
    expect(entry.seq).toBe(entries[i].seq + 1);
    expect(entry.prev_hash).toBe(entries[i].hash);
  });
  expect(entries.some((entry) => entry.action === "account.created" && entry.actor === bob.id)).toBe(true);
});
