import type { Browser } from "@playwright/test";
import { expect, filesContaining, signIn, test, type TestUser } from "./fixtures";
import { colleague, createChannel, copyInviteLink, message, openConversation, person, send, startConversation, waitLive } from "./helpers";

// A colleague who signed up and closed the page, then opens the app on another device first, reads the
// direct messages sent to them meanwhile (ADR 0099): MLS welcomed only the sign-up device, which never
// opened them, so the new device reads what the senders kept for them in their archive.

const NOT_READABLE = "Messages sent before this device joined the conversation cannot be read here.";

async function newDevice(browser: Browser, user: TestUser) {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await signIn(page, user);
  await expect(page.getByText(`@${user.username}`)).toBeAttached({ timeout: 20_000 });
  return page;
}

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
