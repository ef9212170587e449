import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { superuserClient } from "../integration/pocketbase";
import { expect, test } from "./fixtures";
import { person } from "./helpers";

// The admin console's Health section (docs/decisions/0069-what-reaches-pocketbase-directly.md): what
// the supervisor of `npm start` last found about replication. This stack runs PocketBase without
// that supervisor; the test then writes what it would write when Litestream hangs.

test("the console's Health section says when replication has stopped", async ({ browser }) => {
  const statusFile = join(process.env.E2E_PB_DATA!, ".replication-status.json");
  test.info().annotations.push({ type: "status file", description: statusFile });
  const erin = await person(browser, "healthadmin");
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  await admin.collection("profiles").update(erin.id, { role: "admin" });
  rmSync(statusFile, { force: true });

  await erin.page.goto("/admin#health");
  const section = erin.page.getByRole("region", { name: "Health" });
  await expect(section.getByRole("status")).toHaveText(
    "Replication is not watched on this server: it runs without the supervisor of npm start, which runs and checks Litestream.",
  );

  const message =
    "Replication has stopped: the database has changed since the replica was last written, 42 s ago. Litestream is running but not replicating.";
  try {
    const now = new Date().toISOString();
    const status = { state: "behind", message, checkedAt: now, changedAt: now, replicatedAt: now, walBytes: 44.6 * 1024 * 1024 };
    writeFileSync(statusFile, JSON.stringify(status));
    // the section reads it again every 5 s
    await expect(section.getByRole("status")).toHaveText(message, { timeout: 15_000 });
    await expect(section).toContainText("44.6 MB");
  } finally {
    rmSync(statusFile, { force: true });
  }
});
