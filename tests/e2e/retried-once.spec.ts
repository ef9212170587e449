import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, NO_ANSWER, test } from "./fixtures";
import { createChannel, joinAndOpen, keyPackagesSent, log, messageTexts, person, send, waitLive } from "./helpers";
import { openThread } from "./thread-helpers";
import { sendFile } from "./send-file";

// What a user sends again after a failure reaches the others once and in the order typed. "Answer
// lost": the server stored the request, and the connection broke before the page heard so (the
// request goes to the server, then the page's connection is reset).

const admin = () => superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));

/** The next POST to `path` reaches the server, and its answer never reaches the page. */
async function loseNextAnswer(page: Page, path: string) {
  let lost = false;
  await page.route(path, async (route) => {
    if (route.request().method() !== "POST" || lost) return route.fallback();
    lost = true;
    await route.fetch();
    await route.abort("connectionreset");
  });
}

test("a message typed while an earlier one waits in the outbox goes after it, also once the server is back", async ({
  browser,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 503/);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `order-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Order", password);
  await joinAndOpen(bob.page, channelId, password, "Order");
  await send(alice.page, "zero");
  await expect(log(bob.page).getByText("zero")).toBeVisible();

  // The server answers 503 (restarting) to the first send, and is back for the next one.
  let down = true;
  await alice.page.route(`**/api/channels/${channelId}/messages`, async (route) => {
    if (route.request().method() !== "POST" || !down) return route.fallback();
    down = false;
    await route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ message: "The server is unreachable right now." }),
    });
  });
  await send(alice.page, "Can you review the contract?");
  await expect(alice.page.getByRole("list", { name: "Messages not sent yet" }).getByText("Can you review the contract?")).toBeVisible();
  await send(alice.page, "Never mind, I found it.");
  const typed = ["zero", "Can you review the contract?", "Never mind, I found it."];
  for (const page of [bob.page, alice.page]) await expect.poll(() => messageTexts(page), { timeout: 15_000 }).toEqual(typed);
});

test("a thread reply sent again after its answer was lost is stored once", async ({ browser, consoleErrors }) => {
  consoleErrors.allow(NO_ANSWER);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `thread-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Thread Lost", password);
  await joinAndOpen(bob.page, channelId, password, "Thread Lost");
  await send(bob.page, "root message");
  const panel = await openThread(alice.page, "root message");
  await loseNextAnswer(alice.page, `**/api/channels/${channelId}/messages`);
  const box = panel.getByLabel("Reply in thread");
  await box.fill("my only reply");
  await panel.getByRole("button", { name: "Send reply" }).click();
  await expect(alice.page.getByText("The reply could not be sent. Please try again.")).toBeVisible();
  await expect(box).toHaveValue("my only reply");
  // the user does what the page asks
  await panel.getByRole("button", { name: "Send reply" }).click();
  await expect(box).toHaveValue("");
  const su = await admin();
  const replies = () => su.collection("messages").getFullList({ filter: su.filter("channel = {:c} && thread != ''", { c: channelId }) });
  await expect.poll(async () => (await replies()).length).toBe(1);
  const bobPanel = await openThread(bob.page, "root message");
  await expect(bobPanel.getByRole("list", { name: "Replies" }).getByText("my only reply")).toHaveCount(1);
});

test("a group conversation started again after its answer was lost is one group, named as asked", async ({ browser, consoleErrors }) => {
  test.setTimeout(120_000);
  consoleErrors.allow(NO_ANSWER);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const carol = await person(browser, "carol");
  const password = `team-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Team", password);
  for (const other of [bob, carol]) {
    await joinAndOpen(other.page, channelId, password, "Team");
    await keyPackagesSent(other);
  }
  const page = alice.page;
  await loseNextAnswer(page, "**/api/direct");
  await page.getByRole("button", { name: "New message" }).click();
  const dialog = page.getByRole("dialog", { name: "New message" });
  for (const other of [bob, carol]) await dialog.getByRole("checkbox", { name: other.user.username }).check();
  await dialog.getByLabel("Conversation name (optional)").fill("Trio");
  await dialog.getByRole("button", { name: "Start conversation" }).click();
  await expect(dialog.getByText("The conversation could not be started. Please try again.")).toBeVisible();
  await dialog.getByRole("button", { name: "Start conversation" }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "@ Trio" })).toBeVisible({ timeout: 20_000 });
  await waitLive(page);
  await send(page, "hello trio");
  const su = await admin();
  expect(
    await su.collection("channels").getFullList({ filter: su.filter("direct = true && created_by = {:a}", { a: alice.id }) }),
  ).toHaveLength(1);
  // (the conversation reaches Bob's list live: one entry)
  await expect(bob.page.getByRole("region", { name: "Direct messages" }).getByRole("button", { name: /^@ / })).toHaveCount(1);
});

test("a file whose upload was cut, retried: one message with its caption once, and the file", async ({ browser, consoleErrors }) => {
  consoleErrors.allow(NO_ANSWER);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `file-${Date.now()}`;
  const channelId = await createChannel(alice.page, "File Cut", password);
  await joinAndOpen(bob.page, channelId, password, "File Cut");
  await send(alice.page, "before the file");
  await expect(log(bob.page).getByText("before the file")).toBeVisible();
  // The file's message goes through; its upload is cut once.
  let cut = false;
  await alice.page.route(`**/api/channels/${channelId}/attachments`, async (route) => {
    if (cut) return route.fallback();
    cut = true;
    await route.abort("connectionreset");
  });
  await sendFile(
    alice.page,
    { name: "report.txt", mimeType: "text/plain", buffer: Buffer.from("the quarterly report") },
    "here is the report",
  );
  const failed = alice.page.getByRole("alert").filter({ hasText: "Failed to upload file (report.txt)" });
  await failed.getByRole("button", { name: "Retry upload" }).click();
  await expect(failed).toBeHidden();
  for (const page of [bob.page, alice.page]) {
    await expect(log(page).getByRole("button", { name: "Download report.txt" })).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => messageTexts(page)).toEqual(["before the file", "here is the report"]);
    await expect(log(page).getByText("Receiving attachment...")).toHaveCount(0);
  }
  const su = await admin();
  expect(await su.collection("messages").getFullList({ filter: su.filter("channel = {:c}", { c: channelId }) })).toHaveLength(2);
});

test("a file whose upload was cut, discarded (once the network is back): its message goes for everyone", async ({
  browser,
  consoleErrors,
}) => {
  consoleErrors.allow(NO_ANSWER);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `discard-${Date.now()}`;
  const channelId = await createChannel(alice.page, "File Discarded", password);
  await joinAndOpen(bob.page, channelId, password, "File Discarded");
  await alice.page.route(`**/api/channels/${channelId}/attachments`, (route) => route.abort("connectionreset"));
  await sendFile(alice.page, { name: "draft.txt", mimeType: "text/plain", buffer: Buffer.from("not this one") }, "the draft, never mind");
  await expect(log(bob.page).getByText("the draft, never mind")).toBeVisible({ timeout: 20_000 });
  const failed = alice.page.getByRole("alert").filter({ hasText: "Failed to upload file (draft.txt)" });
  // Discard while the network is away: the row stays and says so; nothing is lost.
  await alice.page.route("**/api/messages/*/delete", (route) => route.abort("internetdisconnected"));
  await failed.getByRole("button", { name: "Discard" }).click();
  const notDiscarded = alice.page
    .getByRole("alert")
    .filter({ hasText: "Its message could not be removed. Check your connection and press Discard again. (draft.txt)" });
  await expect(notDiscarded).toBeVisible();
  await expect(log(bob.page).getByText("the draft, never mind")).toBeVisible();
  await alice.page.unroute("**/api/messages/*/delete");
  await notDiscarded.getByRole("button", { name: "Discard" }).click();
  await expect(notDiscarded).toBeHidden();
  for (const page of [bob.page, alice.page]) await expect(log(page).getByText("the draft, never mind")).toHaveCount(0, { timeout: 20_000 });
  await bob.page.reload();
  await waitLive(bob.page);
  await expect(log(bob.page).getByText("the draft, never mind")).toHaveCount(0);
});

test("a channel created again after its answer was lost is one channel, readable", async ({ browser, consoleErrors }) => {
  consoleErrors.allow(NO_ANSWER);
  const alice = await person(browser, "alice");
  const page = alice.page;
  await loseNextAnswer(page, "**/api/channels");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Create Channel" });
  await dialog.getByLabel("Channel Name").fill("Lost Answer");
  await dialog.getByLabel("Password").fill(`lost-${Date.now()}`);
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(dialog.getByText("Failed to create channel")).toBeVisible();
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { name: "# Lost Answer" })).toBeVisible();
  await waitLive(page);
  await send(page, "readable here");
  await expect(page.getByRole("button", { name: "# Lost Answer" })).toHaveCount(1);
  const su = await admin();
  expect(await su.collection("channels").getFullList({ filter: su.filter("created_by = {:a}", { a: alice.id }) })).toHaveLength(1);
});

test("a file the server refuses takes its posted message away: nobody is left with a caption waiting for its file", async ({
  browser,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 413/);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `refused-${Date.now()}`;
  const channelId = await createChannel(alice.page, "File Refused", password);
  await joinAndOpen(bob.page, channelId, password, "File Refused");
  // (the limit lowered between the page's look at it and the upload: the server refuses the file)
  await alice.page.route(`**/api/channels/${channelId}/attachments`, (route) =>
    route.fulfill({
      status: 413,
      contentType: "application/json",
      body: JSON.stringify({ message: "The file is larger than the limit of 1 MB." }),
    }),
  );
  await sendFile(
    alice.page,
    { name: "big.txt", mimeType: "text/plain", buffer: Buffer.from("pretend it is big") },
    "the big report caption",
  );
  await expect(alice.page.getByRole("alert").filter({ hasText: "The file is larger than the limit of 1 MB." })).toBeVisible();
  for (const page of [bob.page, alice.page])
    await expect(log(page).getByText("the big report caption")).toHaveCount(0, { timeout: 20_000 });
  const su = await admin();
  await expect
    .poll(async () => (await su.collection("messages").getFullList({ filter: su.filter("channel = {:c}", { c: channelId }) })).length)
    .toBe(0);
});
