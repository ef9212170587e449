import type PocketBase from "pocketbase";
import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, filesContaining, test } from "./fixtures";
import { createChannel, joinAndOpen, keyPackagesSent, log, openNotificationSettings, person, send, waitLive } from "./helpers";

/**
 * Records of any collection created or changed since `since` whose fields name one of `ids` (the
 * people and the conversation of this test: the worker's other tests write their own, and a page's
 * background work, such as its MLS key packages, is not typing).
 */
async function recordsTouched(admin: PocketBase, since: string, ids: string[]): Promise<string[]> {
  const touched: string[] = [];
  for (const collection of await admin.collections.getFullList()) {
    if (collection.type === "view") continue;
    const dates = ["created", "updated"].filter((name) => collection.fields.some((field: { name: string }) => field.name === name));
    if (dates.length === 0) continue;
    const filter = dates.map((name) => `${name} >= "${since}"`).join(" || ");
    const records = await admin.collection(collection.name).getFullList({ filter, batch: 500 });
    for (const record of records) {
      const text = JSON.stringify(record);
      if (ids.some((id) => text.includes(id))) touched.push(`${collection.name} ${text.slice(0, 300)}`);
    }
  }
  return touched;
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
  // settle: each device's MLS key packages go up a moment after its workspace opens (not typing)
  await keyPackagesSent(alice);
  await keyPackagesSent(bob);
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  // what Alice's page tells the server while she types: its sealed data must be stored nowhere
  const told: string[] = [];
  alice.page.on("request", (request) => {
    if (request.url().endsWith(`/api/channels/${channelId}/typing`))
      told.push((JSON.parse(request.postData() ?? "{}") as { data?: string }).data ?? "");
  });
  const since = new Date().toISOString().replace("T", " ");
  const box = alice.page.getByLabel("Message", { exact: true });
  // she keeps typing until Bob's screen shows it (how fast is a figure for the bench, not a timed test;
  // the page tells at most every 3 s, and her last word may have told less than 3 s ago)
  await expect(async () => {
    await box.pressSequentially(" and more", { delay: 20 });
    // (the indicator may still show her typing of "hello bob": wait for one told after the listener)
    expect(told.length).toBeGreaterThan(0);
    await expect(indicator(bob.page)).toHaveText(`${alice.user.username} is typing…`, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  // she stops: it goes by itself
  await expect(indicator(bob.page)).toHaveCount(0, { timeout: 8_000 });
  expect(
    told.every((data) => data.length > 20),
    "a classic channel's typing event carries sealed data",
  ).toBe(true);
  for (const data of told) expect(filesContaining([process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!], data)).toEqual([]);
  expect(await recordsTouched(admin, since, [alice.id, bob.id, channelId])).toEqual([]);

  // She types again and sends: the indicator goes with her message's arrival, not seconds after it.
  await expect(async () => {
    await box.pressSequentially(" then", { delay: 20 });
    await expect(indicator(bob.page)).toHaveText(`${alice.user.username} is typing…`, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await box.fill("sent while shown");
  await box.press("Enter");
  await expect(log(bob.page).getByText("sent while shown")).toBeVisible();
  await expect(indicator(bob.page)).toHaveCount(0, { timeout: 1_000 });

  // Bob turns his off: Alice sees nothing while he types.
  await openNotificationSettings(bob.page);
  const dialog = bob.page.getByRole("dialog", { name: "Notification Settings" });
  await dialog.getByLabel("Send typing indicators").uncheck();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await bob.page.getByLabel("Message", { exact: true }).pressSequentially("quietly typing here", { delay: 20 });
  await alice.page.waitForTimeout(1_500);
  await expect(indicator(alice.page)).toHaveCount(0);

  // The request log never names the typing route (its successes are not logged): once it holds Bob's
  // settings save, which came after Alice's typing, it would hold those too.
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
