import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, person, send } from "./helpers";
import { article, deleteMessage, openThread, reply } from "./thread-helpers";

// A thread follows its deletions on open pages (ADR 23's addendum): a reply deleted counts one less under
// its root at once (the count only ever went up until a reload), and a root deleted leaves the Threads
// view of those who saw the thread (its entry stayed, and opening it said "This thread could not be
// loaded."); its address opened after its root went says so.

test("a reply deleted counts one less under its root, on every open page", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `counted-${Date.now()}`;
  const id = await createChannel(alice.page, "Counted", password);
  await joinAndOpen(bob.page, id, password, "Counted");
  await send(alice.page, "the root of it");
  await expect(article(bob.page, "the root of it")).toBeVisible({ timeout: 20_000 });
  const panel = await openThread(bob.page, "the root of it");
  await reply(panel, "first reply");
  await reply(panel, "second reply, also in the channel", true);
  for (const p of [alice, bob]) await expect(article(p.page, "the root of it")).toContainText("2 replies", { timeout: 20_000 });
  await bob.page.getByRole("button", { name: "Close thread" }).click();

  // Bob deletes the reply's copy in the channel: it was the reply.
  await deleteMessage(bob.page, "second reply, also in the channel");
  for (const p of [alice, bob]) await expect(article(p.page, "the root of it")).toContainText("1 reply", { timeout: 10_000 });
  await expect(article(alice.page, "the root of it")).not.toContainText("2 replies");
  const seen = await openThread(alice.page, "the root of it");
  await expect(seen.getByRole("list", { name: "Replies" }).getByRole("listitem")).toHaveCount(1);
  for (const p of [alice, bob]) await p.context.close();
});

test("a root deleted leaves the Threads view of those who saw its thread, and an entry opened late says it may have been deleted", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `listed-${Date.now()}`;
  const id = await createChannel(alice.page, "Listed", password);
  await joinAndOpen(bob.page, id, password, "Listed");
  await send(alice.page, "root to be deleted");
  await expect(article(bob.page, "root to be deleted")).toBeVisible({ timeout: 20_000 });
  const rootId = (await article(bob.page, "root to be deleted").getAttribute("id"))!.replace(/^message-/, "");
  await reply(await openThread(bob.page, "root to be deleted"), "bob takes part");
  await bob.page.getByRole("button", { name: "Close thread" }).click();
  // Bob goes to another channel; Alice answers: his Threads view lists the thread as unread.
  await createChannel(bob.page, "Elsewhere", password);
  const alicePanel = await openThread(alice.page, "root to be deleted");
  await reply(alicePanel, "alice answers later");
  const threads = bob.page.getByRole("button", { name: /^Threads/ });
  await expect(threads).toHaveText("Threads (1 unread)", { timeout: 20_000 });
  await threads.click();
  const entry = bob.page.getByRole("region", { name: "Threads" }).getByRole("button", { name: "# Listed: 1 new reply" });
  await expect(entry).toBeVisible();

  // Alice deletes the root: Bob's view drops it at once.
  await alice.page.getByRole("button", { name: "Close thread" }).click();
  await deleteMessage(alice.page, "root to be deleted");
  await expect(entry).toHaveCount(0, { timeout: 10_000 });
  await expect(threads).toHaveText("Threads");
  // The thread's address, opened now: the panel says what may have happened (it said it could not be
  // loaded); the server keeps nothing of a deleted message, so an address that never named a thread
  // reads the same (it said the thread was deleted), and so does one cut short, which cannot be an id (it
  // said the conversation was not available to him).
  const panel = bob.page.getByRole("complementary", { name: "Thread" });
  for (const root of [rootId, "abcdefghijklmno", rootId.slice(0, 6)]) {
    await bob.page.goto(`/c/${id}/t/${root}`);
    await expect(panel.getByRole("alert")).toHaveText(
      "This thread is not there. Its first message may have been deleted, and its replies with it.",
      { timeout: 20_000 },
    );
    // Nothing to reply to: no reply box (it stayed, its Send never enabled, without a word why).
    await expect(panel.getByLabel("Reply in thread")).toHaveCount(0);
  }
  for (const p of [alice, bob]) await p.context.close();
});
