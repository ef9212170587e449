// The admin console as an administrator uses it: from the menu, people found by typing part of a name.
import type { Browser, Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect } from "./fixtures";
import { person, type Person } from "./helpers";

/**
 * A person the superuser makes the workspace's owner or an admin (the worker's stack is shared by every
 * spec: its first account may be anyone's), their page reloaded (a page learns its role when it loads).
 */
export async function administrator(browser: Browser, role: "owner" | "admin", prefix = "boss"): Promise<Person> {
  const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const admin = await person(browser, prefix);
  await su.collection("profiles").update(admin.id, { role });
  await admin.page.reload();
  return admin;
}

/** Opens the console from the page's menu. */
export async function openConsole(page: Page) {
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  await page.getByRole("menuitem", { name: "Admin console" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Admin console", level: 1 })).toBeVisible();
}

/** The People section's entry for a username, found by typing part of it into the search box. */
export async function findPerson(page: Page, username: string) {
  const people = page.getByRole("list", { name: "People" });
  // the first list has loaded (the page is running): what is typed from now on searches
  await expect(people).toBeVisible();
  await page.getByLabel("Search people").fill(username.slice(1, -2));
  await expect(people.getByRole("listitem")).toHaveCount(1);
  return people.getByRole("listitem", { name: username });
}

/**
 * Deactivates (confirming "Deactivate NAME?") or reactivates a person from the console, which `page`
 * shows; resolves once the console says it is done.
 */
export async function changeStatus(page: Page, username: string, change: "deactivate" | "reactivate") {
  const entry = await findPerson(page, username);
  if (change === "deactivate") {
    await entry.getByRole("button", { name: `Deactivate ${username}` }).click();
    await page
      .getByRole("dialog", { name: `Deactivate ${username}?` })
      .getByRole("button", { name: "Deactivate" })
      .click();
  } else {
    await entry.getByRole("button", { name: `Reactivate ${username}` }).click();
  }
  await expect(page.getByRole("status").getByText(`${username} was ${change}d.`)).toBeVisible();
}

/** The owner, in the console `page` shows, makes a person an admin (confirming "Make NAME Admin?"). */
export async function makeAdmin(page: Page, username: string) {
  const entry = await findPerson(page, username);
  await entry.getByRole("combobox", { name: `Change role for ${username}` }).selectOption("admin");
  const confirm = page.getByRole("dialog", { name: `Make ${username} Admin?` });
  await confirm.getByRole("button", { name: "Change role" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("status").getByText(`${username} is now Admin.`)).toBeVisible();
}

/** The console's Audit log section, read again, with its chain's verdict (the section's status). */
export async function auditLog(page: Page) {
  const section = page.getByRole("region", { name: "Audit log" });
  await section.getByRole("button", { name: "Refresh" }).click();
  return { section, verdict: section.getByRole("status"), entries: section.getByRole("table", { name: "Audit log entries" }) };
}
