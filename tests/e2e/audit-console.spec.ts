import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { superuserClient } from "../integration/pocketbase";
import { expect, test } from "./fixtures";
import { person } from "./helpers";

// The admin console's "Audit log" section (docs/decisions/0054-audit-log.md): the chain's verdict, the
// entries with readable actions, and the broken entry named once a stored row is changed through the
// superuser's API. Runs where the console (/admin, app/routes/admin.tsx) exists.

const consoleBuilt = existsSync(fileURLToPath(new URL("../../app/routes/admin.tsx", import.meta.url)));

test("the console's Audit log verifies the chain, and names the entry changed through the superuser's API", async ({ browser }) => {
  test.skip(!consoleBuilt, "the admin console (/admin) is not in this tree");
  const dana = await person(browser, "auditadmin");
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  await admin.collection("profiles").update(dana.id, { role: "admin" });

  await dana.page.goto("/admin#audit");
  const section = dana.page.getByRole("region", { name: "Audit log" });
  await expect(section.getByRole("status")).toHaveText(/^Chain verified: \d+ entr(y|ies)\.$/, { timeout: 20_000 });
  const entries = section.getByRole("table", { name: "Audit log entries" });
  await expect(entries).toContainText("Account created");
  await expect(entries).toContainText("account.created");

  // A change made in the same console shows in the log without "Refresh" (it waited for it). (The
  // worker's stack is shared: the setting is put back afterwards, for the specs that send large files.)
  const settingsId = "workspace000001";
  const maxMbBefore = await admin
    .collection("workspace_settings")
    .getOne(settingsId)
    .then(
      (row) => Number(row.file_max_mb) || 0,
      () => 0,
    );
  const files = dana.page.getByRole("region", { name: "Files" });
  await files.getByLabel("Largest file (MB)").fill("7");
  await files.getByRole("button", { name: "Save file settings" }).click();
  await expect(files.getByRole("status")).toContainText("up to 7 MB.");
  await expect(entries).toContainText("to 7 MB", { timeout: 10_000 });
  await admin.collection("workspace_settings").update(settingsId, { file_max_mb: maxMbBefore });

  // only her own entries, by clicking her name
  await entries
    .getByRole("button", { name: `Show only the entries of @${dana.user.username}` })
    .first()
    .click();
  await expect(section.getByText(`Only the entries of @${dana.user.username}.`)).toBeVisible();
  await expect(entries.getByRole("row")).toHaveCount(3);

  // a row changed in the dashboard: the section names it; put back, the chain verifies again
  const row = await admin.collection("audit_log").getFirstListItem(`actor = "${dana.id}" && action = "account.created"`);
  await admin.collection("audit_log").update(row.id, { details: { forged: true } });
  await section.getByRole("button", { name: "Refresh" }).click();
  await expect(section.getByRole("status")).toHaveText(`Broken at entry ${row.seq}: it was changed or removed after it was written.`);
  await admin.collection("audit_log").update(row.id, { details: row.details });
  await section.getByRole("button", { name: "Refresh" }).click();
  await expect(section.getByRole("status")).toHaveText(/^Chain verified: \d+ entr(y|ies)\.$/);

  const downloading = dana.page.waitForEvent("download");
  await section.getByRole("link", { name: "Download JSON Lines" }).click();
  expect((await downloading).suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.jsonl$/);
});

test("the console's Audit log pages stay put while new entries are written, and say so", async ({ browser }) => {
  test.skip(!consoleBuilt, "the admin console (/admin) is not in this tree");
  const dana = await person(browser, "auditpager");
  const erin = await person(browser, "audittarget");
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  await admin.collection("profiles").update(dana.id, { role: "admin" });
  // Dana (through PocketBase, as her page would) changes Erin's role back and forth: more than a page
  const asDana = await admin.collection("users").impersonate(dana.id, 600);
  const toggle = async (times: number) => {
    for (let i = 0; i < times; i++) {
      await asDana.send("/api/chat/admin/people/role", { method: "POST", body: { user_id: erin.id, role: i % 2 ? "member" : "guest" } });
    }
  };
  await toggle(52);

  await dana.page.goto("/admin#audit");
  const section = dana.page.getByRole("region", { name: "Audit log" });
  const entries = section.getByRole("table", { name: "Audit log entries" });
  const pages = section.getByRole("navigation", { name: "Audit log pages" });
  await expect(pages).toContainText(/Page 1 of \d+/, { timeout: 20_000 });
  const seqOf = async (row: number) => Number(await entries.getByRole("row").nth(row).getByRole("cell").first().innerText());
  const lastOnFirst = await seqOf(50);

  // two more entries while page 1 is on screen: "Older" goes on from the last entry she saw
  await toggle(2);
  await pages.getByRole("button", { name: "Older" }).click();
  await expect(pages).toContainText(/Page 2 of \d+/);
  await expect.poll(() => seqOf(1)).toBe(lastOnFirst - 1);
  await expect(section.getByText("2 new entries since page 1 was read: they are on page 1.")).toBeVisible();
  // back on page 1: the newest, read afresh
  const newest = (await admin.collection("audit_log").getList(1, 1, { sort: "-seq" })).items[0].seq as number;
  await pages.getByRole("button", { name: "Newer" }).click();
  await expect(pages).toContainText(/Page 1 of \d+/);
  await expect.poll(() => seqOf(1)).toBe(newest);
  await expect(section.getByText(/new entr(y|ies) since page 1/)).toHaveCount(0);

  // the days of her own calendar: from tomorrow, nothing; from today to today, today's entries
  const day = (offset: number) => {
    const at = new Date();
    at.setDate(at.getDate() + offset);
    return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`;
  };
  await section.getByLabel("From").fill(day(1));
  await expect(section.getByText("No entries.")).toBeVisible();
  await section.getByLabel("From").fill(day(0));
  await section.getByLabel("To").fill(day(0));
  await expect.poll(() => seqOf(1)).toBe(newest);
  await section.getByLabel("To").fill(day(-1));
  await expect(section.getByText("No entries.")).toBeVisible();
});
