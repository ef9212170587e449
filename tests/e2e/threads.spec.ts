import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  createChannel,
  createSealed,
  joinAndOpen,
  keyPackagesSent,
  log,
  openConversation,
  openNotificationSettings,
  person,
  send,
  startConversation,
  type Person,
  waitInGroup,
  waitLive,
} from "./helpers";
import { article, openThread, reply } from "./thread-helpers";

// Threads: replies stay out of the channel's flow; the root shows "N replies"; the thread is live on
// the other screen, notifies its participants, and is whole after a reload.

/** Counts desktop notifications the page shows (the browser's own API, recorded). */
async function recordNotifications(page: Page) {
  await page.evaluate(() => {
    const shown: string[] = [];
    (window as unknown as { __shown: string[] }).__shown = shown;
    class Recorded {
      static permission = "granted";
      static requestPermission = async () => "granted";
      constructor(title: string, options?: { body?: string }) {
        shown.push(`${title}: ${options?.body ?? ""}`);
      }
      close() {}
    }
    Object.defineProperty(window, "Notification", { value: Recorded, configurable: true });
    Object.defineProperty(document, "hasFocus", { value: () => false, configurable: true });
  });
}

async function threadOfThree(alice: Person, bob: Person, room: string) {
  await send(alice.page, `kick-off in ${room}`);
  await expect(article(bob.page, `kick-off in ${room}`)).toBeVisible({ timeout: 20_000 });
  const bobsPanel = await openThread(bob.page, `kick-off in ${room}`);
  const panel = await openThread(alice.page, `kick-off in ${room}`);
  for (const n of [1, 2, 3]) await reply(panel, `reply ${n} in ${room}`);
  // live on Bob's screen, in the thread and as the count under the root; never in the channel's flow
  await expect(bobsPanel.getByRole("list", { name: "Replies" }).getByRole("listitem")).toHaveCount(3, { timeout: 20_000 });
  await expect(article(bob.page, `kick-off in ${room}`).getByRole("button", { name: "3 replies: open the thread" })).toBeVisible();
  await expect(log(bob.page).getByText(`reply 2 in ${room}`)).toHaveCount(0);
  await expect(article(alice.page, `kick-off in ${room}`).getByRole("button", { name: "3 replies: open the thread" })).toBeVisible();
  return { panel, bobsPanel };
}

test("a thread of three replies in a classic channel, a sealed channel and a direct conversation: only the root with its count in the channel, live, notified, whole after a reload", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");

  // Classic channel.
  const password = `threads-${Date.now()}`;
  const classicId = await createChannel(alice.page, "Threaded", password);
  await joinAndOpen(bob.page, classicId, password, "Threaded");
  const { panel, bobsPanel } = await threadOfThree(alice, bob, "Threaded");

  // Bob takes part: a later reply notifies him, though it mentions nobody.
  await reply(bobsPanel, "bob joins the thread");
  await recordNotifications(bob.page);
  await openNotificationSettings(bob.page);
  const settings = bob.page.getByRole("dialog", { name: "Notification Settings" });
  await settings.getByLabel("Desktop notifications").check();
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(settings).toBeHidden();
  await reply(panel, "alice answers bob");
  await expect
    .poll(() => bob.page.evaluate(() => (window as unknown as { __shown: string[] }).__shown), { timeout: 20_000 })
    .toContainEqual(expect.stringContaining("alice answers bob"));

  // "Also send to channel": in the thread and in the flow.
  await reply(panel, "this one for everyone", true);
  await expect(log(bob.page).getByText("this one for everyone")).toBeVisible({ timeout: 20_000 });

  // The Threads view lists the thread for Bob while it has replies he has not seen, and opens it.
  await bob.page.getByRole("button", { name: "Close thread" }).click();
  await reply(panel, "one more while bob looks away");
  const threads = bob.page.getByRole("region", { name: "Threads" });
  await threads.getByRole("button", { name: /^Threads/ }).click();
  await expect(threads.getByRole("button", { name: "# Threaded: 1 new reply" })).toBeVisible({ timeout: 20_000 });
  await threads.getByRole("button", { name: "# Threaded: 1 new reply" }).click();
  await expect(bob.page.getByRole("complementary", { name: "Thread" }).getByText("one more while bob looks away")).toBeVisible();
  await expect(threads.getByText("No unread threads")).toBeVisible({ timeout: 20_000 });

  // Search finds a reply that is only in its thread, and its result opens the thread.
  await bob.page.getByRole("button", { name: "Close thread" }).click();
  const searchField = bob.page.getByRole("combobox", { name: "Search messages" });
  await bob.page.keyboard.press("Control+k");
  await searchField.fill("looks away");
  const hit = bob.page.getByRole("listbox", { name: "Search results" }).getByRole("option");
  await expect(hit).toHaveCount(1, { timeout: 20_000 });
  await searchField.press("Enter");
  await expect(bob.page.getByRole("complementary", { name: "Thread" }).getByText("one more while bob looks away")).toBeVisible();

  // After a reload the thread is whole.
  await bob.page.reload();
  await bob.page.getByRole("button", { name: "# Threaded" }).click();
  await expect(article(bob.page, "kick-off in Threaded").getByRole("button", { name: "7 replies: open the thread" })).toBeVisible();
  await expect(log(bob.page).getByText("reply 1 in Threaded")).toHaveCount(0);
  const again = await openThread(bob.page, "kick-off in Threaded");
  await expect(again.getByRole("list", { name: "Replies" }).getByRole("listitem")).toHaveCount(7);

  // Someone who joins later finds a reply that is only in its thread: the search backfill reads the
  // threads of the pages it indexes, not only the channel's flow.
  const carol = await person(browser, "carol");
  await joinAndOpen(carol.page, classicId, password, "Threaded");
  await carol.page.keyboard.press("Control+k");
  await carol.page.getByRole("combobox", { name: "Search messages" }).fill("looks away");
  await expect(carol.page.getByRole("listbox", { name: "Search results" }).getByRole("option")).toHaveCount(1, { timeout: 30_000 });
  await carol.context.close();

  // Sealed channel (MLS): the same.
  const sealedPassword = `threads-sealed-${Date.now()}`;
  const sealedId = await createSealed(alice.page, "Sealed Threads", sealedPassword);
  await joinAndOpen(bob.page, sealedId, sealedPassword, "Sealed Threads");
  // The kick-off is for a group Bob's device is already in.
  for (const p of [alice.page, bob.page]) await waitInGroup(p);
  await threadOfThree(alice, bob, "Sealed Threads");

  // Direct conversation (MLS, its members listed by its participants): the same.
  await keyPackagesSent(bob);
  await startConversation(alice.page, [bob.user.username]);
  await waitLive(alice.page);
  await openConversation(bob.page, alice.user.username);
  for (const p of [alice.page, bob.page]) await waitInGroup(p);
  await threadOfThree(alice, bob, "a direct conversation");
  // Its search results are headed as the sidebar names it: "@ alice" (they said "# alice").
  await bob.page.keyboard.press("Control+k");
  await bob.page.getByRole("combobox", { name: "Search messages" }).fill("kick-off in a direct");
  const results = bob.page.getByRole("listbox", { name: "Search results" });
  await expect(results.getByRole("group", { name: `@ ${alice.user.username}` })).toBeVisible({ timeout: 20_000 });
  await expect(results.getByText(`# ${alice.user.username}`)).toHaveCount(0);

  await alice.context.close();
  await bob.context.close();
});
