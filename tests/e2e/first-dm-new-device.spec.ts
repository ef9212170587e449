import type { Browser } from "@playwright/test";
import { expect, filesContaining, test } from "./fixtures";
import {
  newDevice,
  colleague,
  createChannel,
  copyInviteLink,
  log,
  message,
  openConversation,
  person,
  send,
  startConversation,
  waitLive,
  type Person,
} from "./helpers";
import { openThread, reply } from "./thread-helpers";

// A colleague who signed up and closed the page, then opens the app on another device first, reads the
// direct messages sent to them meanwhile (ADR 0099): MLS welcomed only the sign-up device, which never
// opened them, so the new device reads what the senders kept for them in their archive.

const NOT_READABLE = "Messages sent before this device joined the conversation cannot be read here.";

test("a newcomer's first device closed, the direct messages sent meanwhile open on the next device they use", async ({ browser }) => {
  test.setTimeout(240_000);
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "Team", `team-${Date.now()}`);
  const link = await copyInviteLink(alice.page);
  const bob = await colleague(browser, "bob", link, "Team");
  const carol = await colleague(browser, "carol", link, "Team");
  // Bob closes the page he signed up on, and does not come back to that device.
  await bob.context.close();

  // Alice writes to him, alone and in a group with Carol, who answers there.
  await startConversation(alice.page, [bob.user.username]);
  await waitLive(alice.page);
  await send(alice.page, "welcome aboard, bob");
  await expect(message(alice.page, "welcome aboard, bob")).toBeVisible();
  await send(alice.page, "the wiki is on the intranet");
  await expect(message(alice.page, "the wiki is on the intranet")).toBeVisible();
  await startConversation(alice.page, [bob.user.username, carol.user.username], "Onboarding");
  await waitLive(alice.page);
  await send(alice.page, "your first week, bob");
  await expect(message(alice.page, "your first week, bob")).toBeVisible();
  await openConversation(carol.page, "Onboarding");
  await expect(message(carol.page, "your first week, bob")).toBeVisible({ timeout: 15_000 });
  await send(carol.page, "ask me anything, bob");
  await expect(message(carol.page, "ask me anything, bob")).toBeVisible();

  // The next morning Bob signs in on his laptop: every message is there, nothing said unreadable.
  const laptop = await newDevice(browser, bob.user);
  await openConversation(laptop, alice.user.username);
  for (const text of ["welcome aboard, bob", "the wiki is on the intranet"])
    await expect(message(laptop, text)).toBeVisible({ timeout: 20_000 });
  await expect(laptop.getByText(NOT_READABLE)).toHaveCount(0);
  await openConversation(laptop, "Onboarding");
  for (const text of ["your first week, bob", "ask me anything, bob"]) await expect(message(laptop, text)).toBeVisible({ timeout: 20_000 });
  await expect(laptop.getByText(NOT_READABLE)).toHaveCount(0);

  // And he answers from there.
  await send(laptop, "thanks, both of you");
  await expect(message(alice.page, "thanks, both of you")).toBeVisible({ timeout: 15_000 });
  await expect(message(carol.page, "thanks, both of you")).toBeVisible({ timeout: 15_000 });

  // What was kept for him is ciphertext only: no message in clear in the server's data or logs.
  for (const text of ["welcome aboard, bob", "the wiki is on the intranet", "your first week, bob", "ask me anything, bob"]) {
    expect(filesContaining([process.env.E2E_PB_DATA!], text)).toEqual([]);
    expect(filesContaining([process.env.E2E_LOG_DIR!], text)).toEqual([]);
  }
});

/** Alice and Bob, who signed up through her team's invite and closed that device, in a one-to-one she started. */
async function withAbsentNewcomer(browser: Browser) {
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "Team", `team-${Date.now()}`);
  const bob = await colleague(browser, "bob", await copyInviteLink(alice.page), "Team");
  await bob.context.close();
  await startConversation(alice.page, [bob.user.username]);
  await waitLive(alice.page);
  return { alice, bob };
}

test("what a newcomer's new device reads of the first day: an edit as edited, a reaction, a deletion gone, a thread's reply", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { alice, bob } = await withAbsentNewcomer(browser);
  for (const text of ["the standup is at nine", "this one goes away", "the wiki is on the intranet"]) {
    await send(alice.page, text);
    await expect(message(alice.page, text)).toBeVisible();
  }
  // (by its id: the text gives way to the edit box)
  const standup = alice.page.locator(`[id="${await message(alice.page, "the standup is at nine").getAttribute("id")}"]`);
  await standup.hover();
  await standup.getByRole("button", { name: "Edit", exact: true }).click();
  await standup.getByLabel("Edit message").fill("the standup is at half past nine");
  await standup.getByLabel("Edit message").press("Enter");
  await expect(message(alice.page, "the standup is at half past nine")).toContainText("(edited)");
  const wiki = message(alice.page, "the wiki is on the intranet");
  await wiki.hover();
  await wiki.getByRole("button", { name: "React", exact: true }).click();
  await alice.page.getByRole("menu", { name: "React with" }).getByRole("menuitem", { name: "👍", exact: true }).click();
  await expect(wiki.getByRole("button", { name: /^👍 1/ })).toBeVisible();
  const gone = message(alice.page, "this one goes away");
  await gone.hover();
  await gone.getByRole("button", { name: "Delete", exact: true }).click();
  await alice.page.getByRole("dialog", { name: "Delete Message" }).getByRole("button", { name: "Delete" }).click();
  await expect(gone).toHaveCount(0);
  const panel = await openThread(alice.page, "the wiki is on the intranet");
  await reply(panel, "the password is in the vault");

  const laptop = await newDevice(browser, bob.user);
  await openConversation(laptop, alice.user.username);
  await expect(message(laptop, "the standup is at half past nine")).toContainText("(edited)", { timeout: 20_000 });
  await expect(log(laptop).getByText("the standup is at nine", { exact: true })).toHaveCount(0);
  await expect(message(laptop, "the wiki is on the intranet").getByRole("button", { name: /^👍 1/ })).toHaveAccessibleName(
    `👍 1: ${alice.user.username} reacted with 👍`,
  );
  await expect(log(laptop).getByText("this one goes away")).toHaveCount(0);
  const thread = await openThread(laptop, "the wiki is on the intranet");
  await expect(thread.getByRole("list", { name: "Replies" }).getByText("the password is in the vault")).toBeVisible({ timeout: 20_000 });
  await expect(laptop.getByText(NOT_READABLE)).toHaveCount(0);
});

/**
 * Alice sends and closes the tab at once: what waits for the archive, her copy and Bob's, goes as the page
 * goes. Then Bob's new laptop opens their conversation and shows these texts.
 */
async function sendAsTheTabCloses(browser: Browser, alice: Person, bob: Person, shown: string[]) {
  // (her page's clock stands still from here: the archive's batch is still waiting when the tab closes)
  await alice.page.clock.install();
  const posted = alice.page.waitForResponse((r) => r.request().method() === "POST" && /\/api\/channels\/[^/]+\/messages$/.test(r.url()));
  await alice.page.getByLabel("Message", { exact: true }).fill("sent as the tab closes");
  await alice.page.getByLabel("Message", { exact: true }).press("Enter");
  await posted;
  const id = ((await message(alice.page, "sent as the tab closes").getAttribute("id")) ?? "").replace(/^message-/, "");
  // (Bob's copy is queued once sealed, a moment after the send)
  const queued = () =>
    alice.page.evaluate(
      (end) => Object.keys(localStorage).some((k) => k.startsWith("chatcrypt.archive-pending.") && k.endsWith(end)),
      `.${id}.${bob.id}`,
    );
  await expect.poll(queued).toBe(true);
  await alice.page.close();

  const laptop = await newDevice(browser, bob.user);
  await openConversation(laptop, alice.user.username);
  for (const text of shown) await expect(message(laptop, text)).toBeVisible({ timeout: 20_000 });
  await expect(laptop.getByText(NOT_READABLE)).toHaveCount(0);
}

test("a message sent as the sender's tab closes is still kept for the newcomer", async ({ browser }) => {
  test.setTimeout(180_000);
  const { alice, bob } = await withAbsentNewcomer(browser);
  await send(alice.page, "hello bob");
  await expect(message(alice.page, "hello bob")).toBeVisible();
  await sendAsTheTabCloses(browser, alice, bob, ["sent as the tab closes"]);
});

test("a message sent as the sender's tab closes, while the copies of the one before are still being sent, is kept for the newcomer", async ({
  browser,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  const { alice, bob } = await withAbsentNewcomer(browser);
  // The first copy of "hello bob" her page sends for the archive is never answered (a slow network):
  // that send is still under way when the tab closes.
  let held = 0;
  await alice.page.route("**/api/archive/*", async (route) => {
    if (route.request().method() === "POST" && held++ === 0) return; // (left unanswered)
    await route.continue();
  });
  // (what the page was still sending when it closed)
  consoleErrors.allow(/^Failed to load resource: net::ERR_/);
  await send(alice.page, "hello bob");
  await expect.poll(() => held).toBe(1);
  await sendAsTheTabCloses(browser, alice, bob, ["hello bob", "sent as the tab closes"]);
});
