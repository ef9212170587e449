import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, keyPackagesSent, log, person, send, waitLive } from "./helpers";

/**
 * A fingerprint of the data directory's records and files (SQLite's shared-memory index aside, which
 * reads change; the request log in auxiliary.db, which PocketBase flushes late, is checked apart).
 */
function dataDirectory(): string {
  const root = process.env.E2E_PB_DATA!;
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) return walk(file);
      if (name.endsWith("-shm") || name.startsWith("auxiliary.db")) return [];
      return [`${path.relative(root, file)} ${createHash("sha256").update(readFileSync(file)).digest("hex")}`];
    });
  return walk(root).sort().join("\n");
}

const indicator = (page: Page) => page.getByRole("status").filter({ hasText: /is typing…|are typing…/ });

test("typing indicators: shown on the other screen, gone after the sender stops, never stored; a setting turns them off", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `typing-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Typing Room", password);
  await joinAndOpen(bob.page, channelId, password, "Typing Room");
  await send(alice.page, "hello bob");
  await expect(log(bob.page).getByText("hello bob")).toBeVisible();
  await waitLive(alice.page);
  await waitLive(bob.page);
  // settle: nothing else is being written while the indicator comes and goes (each device's MLS key
  // packages go up a moment after its workspace opens)
  await keyPackagesSent(alice);
  await keyPackagesSent(bob);
  await bob.page.waitForLoadState("networkidle");
  await alice.page.waitForLoadState("networkidle");
  const before = dataDirectory();

  const box = alice.page.getByLabel("Message", { exact: true });
  // she keeps typing until Bob's screen shows it (how fast is a figure for the bench, not a timed test;
  // the page tells at most every 3 s, and her last word may have told less than 3 s ago)
  await expect(async () => {
    await box.pressSequentially(" and more", { delay: 20 });
    await expect(indicator(bob.page)).toHaveText(`${alice.user.username} is typing…`, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  // she stops: it goes by itself
  await expect(indicator(bob.page)).toHaveCount(0, { timeout: 8_000 });
  expect(dataDirectory()).toBe(before);

  // Bob turns his off: Alice sees nothing while he types.
  await bob.page.getByRole("button", { name: "Notifications" }).first().click();
  const dialog = bob.page.getByRole("dialog", { name: "Notification Settings" });
  await dialog.getByLabel("Send typing indicators").uncheck();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await bob.page.getByLabel("Message", { exact: true }).pressSequentially("quietly typing here", { delay: 20 });
  await alice.page.waitForTimeout(1_500);
  await expect(indicator(alice.page)).toHaveCount(0);

  // The request log never names the typing route (its successes are not logged): once it holds Bob's
  // settings save, which came after Alice's typing, it would hold those too.
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const logged = async (url: string) => (await admin.logs.getList(1, 1, { filter: admin.filter("data.url ~ {:url}", { url }) })).totalItems;
  // PocketBase writes its request log in batches: after 3 s without a new request, or at once when
  // 200 are waiting. The open pages (and this poll) keep resetting the 3 s, so fill the batch instead.
  const flushRequestLog = () =>
    Promise.all(Array.from({ length: 200 }, () => fetch(`${process.env.E2E_PB_URL}/api/health`).then((r) => r.arrayBuffer())));
  await expect
    .poll(async () => (await flushRequestLog(), logged(`/api/collections/users/records/${bob.id}`)), { timeout: 40_000 })
    .toBeGreaterThan(0);
  expect(await logged("/api/chat/typing")).toBe(0);

  await alice.context.close();
  await bob.context.close();
});
