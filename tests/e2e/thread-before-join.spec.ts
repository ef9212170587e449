import { expect, test } from "./fixtures";
import { createSealed, joinAndOpen, log, person, send, waitLive } from "./helpers";
import { securityCode } from "./header-helpers";
import { deleteMessage, openThread, reply } from "./thread-helpers";

// A thread whose first message was sent before someone joined a sealed channel (ADR 23): its replies
// from after the join reach the newcomer. The first message stands in the channel with who sent it and
// when, says why it cannot be read, and opens its thread, where the newcomer reads and replies.

const STAND_IN = "This message was sent before this device joined, so it cannot be read here.";

test("a reply to a message from before someone joined reaches them: its first message stands in for it", async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const carol = await person(browser, "carol");
  const password = `before-join-${Date.now()}`;
  const name = `Plans ${Date.now() % 100000}`;
  const channelId = await createSealed(alice.page, name, password);
  const root = `plan from before carol ${Date.now()}`;
  await send(alice.page, root);
  await expect(log(alice.page).getByText(root)).toBeVisible();

  await joinAndOpen(carol.page, channelId, password, name);
  await expect.poll(async () => (await securityCode(alice.page)) === (await securityCode(carol.page)), { timeout: 30_000 }).toBe(true);
  const panel = await openThread(alice.page, root);
  await reply(panel, "a reply carol can read", true);

  // Carol (her page open on the channel meanwhile) sees the first message stand in, with its reply
  const standIn = log(carol.page)
    .getByRole("article", { name: `Message from ${alice.user.username}` })
    .filter({ hasText: STAND_IN });
  await expect(standIn).toBeVisible({ timeout: 20_000 });
  await expect(standIn.getByRole("button", { name: "1 reply: open the thread" })).toBeVisible();
  await expect(log(carol.page).getByText(root)).toHaveCount(0);
  // and after a reload, the same
  await carol.page.reload();
  await expect(standIn.getByRole("button", { name: "1 reply: open the thread" })).toBeVisible({ timeout: 30_000 });
  await waitLive(carol.page);
  await standIn.getByRole("button", { name: "1 reply: open the thread" }).click();
  const thread = carol.page.getByRole("complementary", { name: "Thread" });
  await expect(thread.getByRole("article", { name: `Thread started by ${alice.user.username}` })).toContainText(STAND_IN);
  await expect(thread.getByRole("list", { name: "Replies" })).toContainText("a reply carol can read");
  // nothing to react to or edit on it
  await expect(standIn.getByRole("button", { name: "More" })).toHaveCount(0);

  // she answers in the thread; Alice reads it under her first message
  await reply(thread, "carol answers in the thread", true);
  await expect(panel.getByRole("list", { name: "Replies" })).toContainText("carol answers in the thread", { timeout: 20_000 });
  await expect(log(alice.page).getByRole("button", { name: "2 replies: open the thread" })).toBeVisible();

  // its replies deleted (each by its sender, from the conversation), it stands in for nothing: it goes
  await carol.page.getByRole("button", { name: "Close thread" }).click();
  await deleteMessage(carol.page, "carol answers in the thread");
  await expect(standIn.getByRole("button", { name: "1 reply: open the thread" })).toBeVisible({ timeout: 20_000 });
  await deleteMessage(alice.page, "a reply carol can read");
  await expect(standIn).toHaveCount(0, { timeout: 20_000 });
  await alice.context.close();
  await carol.context.close();
});
