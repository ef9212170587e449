import type { Page } from "@playwright/test";
import { expect, test, MISSING_CALL_KEY, REMOVED_FROM_CALL } from "./fixtures";
import { joinCall, receivesFrom, startCall } from "./calls-helpers";
import { createSealed, joinAndOpen, log, person, send, waitLive } from "./helpers";
import { openDetail } from "./header-helpers";

// A sealed channel's call (ADR 30): its key comes from the MLS exporter of the group's epoch. When a
// member is removed mid-call, the others move to the new epoch's key and keep hearing and seeing each
// other; the removed member's page has no key for it and its call ends.

/** The epoch whose call key the page sends with (the call's diagnostics). */
const keyEpoch = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { chatcryptCall: { view(): { keyEpoch: number } } }).chatcryptCall.view().keyEpoch);

test("sealed channel: a member removed mid-call is out of the call, the others go on under the new epoch's key", async ({
  browser,
  consoleErrors,
}) => {
  // (LiveKit's decoder says so for frames of the new epoch's key until it has that key)
  consoleErrors.allow(MISSING_CALL_KEY);
  // (and the removal, on her page, may race LiveKit's own notice of it)
  consoleErrors.allow(REMOVED_FROM_CALL);
  test.setTimeout(150_000);
  const [alice, bob, carol] = await Promise.all(["alice", "bob", "carol"].map((name) => person(browser, name)));
  const password = `sealed-${Date.now()}`;
  await createSealed(alice.page, "Huddle", password);
  const channelId = await alice.page.evaluate(() => navigator.clipboard.readText());
  for (const p of [bob, carol]) await joinAndOpen(p.page, channelId, password, "Huddle");
  for (const p of [alice, bob, carol]) await waitLive(p.page);
  // Every device is in the group: each reads the others.
  await send(carol.page, "carol is here");
  for (const p of [alice, bob]) await expect(log(p.page).getByText("carol is here")).toBeVisible({ timeout: 30_000 });

  await startCall(alice.page);
  const panel = (p: typeof alice) => p.page.getByRole("region", { name: "Call", exact: true });
  await expect(panel(alice).getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  for (const p of [bob, carol]) {
    await joinCall(p.page);
  }
  for (const p of [alice, bob, carol]) {
    await expect(panel(p).getByRole("list", { name: "Participants" }).getByRole("listitem")).toHaveCount(3);
    await expect(panel(p).getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  }
  await receivesFrom(alice.page, bob.id);
  await receivesFrom(bob.page, alice.id);
  await receivesFrom(carol.page, alice.id);

  const before = await keyEpoch(alice.page);
  expect(before).toBeGreaterThan(0);
  for (const p of [bob, carol]) expect(await keyEpoch(p.page)).toBe(before);

  // Alice removes Carol from the channel: a new epoch, a new call key.
  await panel(alice).getByRole("button", { name: "Minimize" }).click();
  await openDetail(alice.page, "Members");
  const members = alice.page.getByRole("complementary", { name: "Members" });
  await members.getByRole("button", { name: `Remove ${carol.user.username}` }).click();
  await alice.page.getByRole("dialog", { name: "Remove Member" }).getByRole("button", { name: "Remove" }).click();
  await expect(members.getByText(`@${carol.user.username}`)).toHaveCount(0);
  await alice.page.getByRole("button", { name: "Close members" }).click();
  await panel(alice).getByRole("button", { name: "Show call" }).click();

  // Carol's page has no key for the new epoch: its call ends and says why.
  await expect(panel(carol).getByText("You are no longer a member of this conversation: the call ended.")).toBeVisible({
    timeout: 30_000,
  });
  await expect(panel(alice).getByRole("list", { name: "Participants" }).getByRole("listitem")).toHaveCount(2, { timeout: 30_000 });
  // Alice and Bob, both on the new epoch's key, still decode each other's frames.
  await expect.poll(() => keyEpoch(alice.page)).toBeGreaterThan(before);
  const after = await keyEpoch(alice.page);
  await expect.poll(() => keyEpoch(bob.page)).toBe(after);
  await receivesFrom(alice.page, bob.id);
  await receivesFrom(bob.page, alice.id);
  await expect(panel(alice).getByText("End-to-end encrypted")).toBeVisible();
  for (const p of [alice, bob, carol]) await p.context.close();
});
