import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { aliceAndBobInDm } from "./dm-helpers";
import { openDetail, securityCode } from "./header-helpers";
import {
  createChannel,
  createSealed,
  joinAndOpen,
  keyPackagesSent,
  log,
  openConversation,
  person,
  send,
  startConversation,
  waitInGroup,
  waitLive,
} from "./helpers";

// Two tabs of one browser are one device: one leaf in the group, one stored state. A tab cannot process
// its own device's commit made in the other tab; it used to join again as a second leaf of the device,
// and the next page to open the channel removed the other tab's leaf as this device's earlier one: the
// channel's creator was told "You are no longer a member of this sealed channel." in her first tab.

async function updateKeys(page: Page, panel = "Members") {
  await openDetail(page, panel);
  const update = page.getByRole("complementary", { name: panel }).getByRole("button", { name: "Update keys" });
  await update.click();
  await expect(update).toBeEnabled({ timeout: 30_000 });
  await page.getByRole("button", { name: `Close ${panel.toLowerCase()}` }).click();
}

test("two tabs of one browser in a sealed channel: each commits, one reloads, and both go on sending and reading", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `two-tabs-${Date.now()}`;
  const channelId = await createSealed(alice.page, "Two tabs", password);
  await joinAndOpen(bob.page, channelId, password, "Two tabs");
  const first = alice.page;
  const second = await alice.context.newPage();
  await second.goto(`/c/${channelId}`);
  for (const page of [first, second, bob.page]) await waitInGroup(page);
  const everyone = [first, second, bob.page];
  const seen = async (text: string) => {
    for (const page of everyone) await expect(log(page).getByText(text)).toBeVisible({ timeout: 20_000 });
  };

  await send(first, "one from the first tab");
  await seen("one from the first tab");
  await send(second, "two from the second tab");
  await seen("two from the second tab");

  // The first tab commits; the second goes on from the state it stored, not as a second leaf.
  const before = await securityCode(bob.page);
  await updateKeys(first);
  await send(second, "three from the second tab after the first one's commit");
  await seen("three from the second tab after the first one's commit");
  await send(first, "four from the first tab");
  await seen("four from the first tab");

  // The second tab reloads (its page reconciles the group's leaves) and commits too.
  await second.reload();
  await waitInGroup(second);
  await send(second, "five after the reload");
  await seen("five after the reload");
  await updateKeys(second);
  await send(first, "six from the first tab after the second one's commit");
  await seen("six from the first tab after the second one's commit");
  await send(bob.page, "seven from bob");
  await seen("seven from bob");

  // One group state for all three pages, a new one since the commits; nothing unreadable, nobody out.
  await expect.poll(async () => new Set(await Promise.all(everyone.map((page) => securityCode(page)))).size, { timeout: 30_000 }).toBe(1);
  expect(await securityCode(bob.page)).not.toBe(before);
  for (const page of everyone) {
    await expect(page.getByText(/could not be read/)).toHaveCount(0);
    await expect(page.getByText(/no longer a member/)).toHaveCount(0);
  }
});

test("two tabs of one browser in a group conversation: one commits, the other goes on", async ({ browser }) => {
  test.setTimeout(120_000);
  const [alice, bob, carol] = [await person(browser, "alice"), await person(browser, "bob"), await person(browser, "carol")];
  const password = `two-tabs-team-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Team", password);
  for (const p of [bob, carol]) {
    await joinAndOpen(p.page, channelId, password, "Team");
    await keyPackagesSent(p);
  }
  const name = `Trio ${Date.now()}`;
  await startConversation(alice.page, [bob.user.username, carol.user.username], name);
  await waitLive(alice.page);
  const first = alice.page;
  const second = await alice.context.newPage();
  await second.goto("/");
  for (const page of [second, bob.page, carol.page]) await openConversation(page, name);
  const pages = [first, second, bob.page, carol.page];
  const seen = async (text: string) => {
    for (const page of pages) await expect(log(page).getByText(text)).toBeVisible({ timeout: 20_000 });
  };
  await send(second, "hello from the second tab");
  await seen("hello from the second tab");

  // The first tab commits (new keys for everyone); the second tab sends next, then the first.
  await updateKeys(first, "Participants");
  await send(second, "the second tab, after the first one's commit");
  await seen("the second tab, after the first one's commit");
  await send(first, "the first tab again");
  await seen("the first tab again");
  await send(bob.page, "bob to all");
  await seen("bob to all");
  // The second tab reloads (its page reconciles the group's leaves); both tabs send again.
  await second.reload();
  await openConversation(second, name);
  await send(second, "the second tab after its reload");
  await seen("the second tab after its reload");
  await send(first, "the first tab after that");
  await seen("the first tab after that");
  await expect
    .poll(async () => new Set(await Promise.all(pages.map((page) => securityCode(page, "Participants")))).size, { timeout: 30_000 })
    .toBe(1);
  for (const page of pages) {
    await expect(page.getByText(/could not be read/)).toHaveCount(0);
    await expect(page.getByText(/no longer a participant/)).toHaveCount(0);
  }
});

test("two tabs of one browser sending in the same instant in a direct conversation: the other person reads both, each tab the other's", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { alice, bob } = await aliceAndBobInDm(browser);
  const first = alice.page;
  await send(first, "hello before the second tab");
  const second = await alice.context.newPage();
  await second.goto("/");
  await openConversation(second, bob.user.username);
  await openConversation(bob.page, alice.user.username);
  const pages = [first, second, bob.page];
  await expect(log(bob.page).getByText("hello before the second tab")).toBeVisible({ timeout: 30_000 });

  // Both tabs seal with the device's one leaf: at once, twice over, then one after the other.
  const sent: string[] = [];
  for (const round of [1, 2]) {
    const texts = [`round ${round} from the first tab`, `round ${round} from the second tab`];
    await Promise.all([send(first, texts[0]), send(second, texts[1])]);
    sent.push(...texts);
  }
  await send(second, "the second tab alone");
  await send(first, "the first tab alone");
  sent.push("the second tab alone", "the first tab alone");
  for (const page of pages)
    for (const text of sent) await expect(log(page).getByText(text, { exact: true })).toBeVisible({ timeout: 20_000 });
  for (const page of pages) await expect(page.getByText(/could not be read/)).toHaveCount(0);

  // And after a reload, from what the device stored.
  await bob.page.reload();
  await openConversation(bob.page, alice.user.username);
  for (const text of sent) await expect(log(bob.page).getByText(text, { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(bob.page.getByText(/could not be read/)).toHaveCount(0);
});
