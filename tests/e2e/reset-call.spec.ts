import type { Page } from "@playwright/test";
import { expect, MISSING_CALL_KEY, NO_ANSWER, REMOVED_FROM_CALL } from "./fixtures";
import { joinCall, receivesFrom, startCall } from "./calls-helpers";
import { mailTest as test } from "./mail-stack";
import { groupOfThree, openGroup, resetOnNewDevice } from "./reset-helpers";

// A call in a group of three while Bob resets without his recovery key (ADR 0100): a call's key is
// shared with every device in the conversation, so a member's page does not share it while his new
// phone is there under keys that member has not accepted. Their call ends, saying what to do; joining
// says the same until they accept; once they do, they join the others, his phone among them.

const panel = (page: Page) => page.getByRole("region", { name: "Call", exact: true });
const participants = (page: Page) => panel(page).getByRole("list", { name: "Participants" }).getByRole("listitem");

test("a member's reset during a group call: the call ends on the page that has not accepted his new keys, saying so, and is theirs again once they accept", async ({
  browser,
  stack,
  consoleErrors,
}) => {
  test.setTimeout(300_000);
  consoleErrors.allow(NO_ANSWER);
  // (LiveKit's decoder says so for frames of a key the page does not have yet; and a call left as the
  // conversation's epoch moves may race LiveKit's own closing of its data channels)
  consoleErrors.allow(MISSING_CALL_KEY);
  consoleErrors.allow(REMOVED_FROM_CALL);
  const { smtp, web } = stack;
  const { alice, bob, carol } = await groupOfThree(browser, stack, "crew, a call soon");
  await bob.context.close();

  // Alice and Carol are in a call.
  await startCall(alice.page);
  await expect(panel(alice.page).getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  await joinCall(carol.page);
  for (const page of [alice.page, carol.page]) await expect(participants(page)).toHaveCount(2, { timeout: 20_000 });
  await receivesFrom(carol.page, alice.id);

  // Bob resets on a new phone. Alice accepts his new keys; then his phone opens the group and joins it
  // by itself. Both calls follow the group's new epoch at once: Alice's goes on under its key, which her
  // page shares with his phone; Carol has not accepted his keys, so her page does not: her call ends,
  // saying why.
  const phone = await resetOnNewDevice(browser, smtp, web.url, bob.user);
  const notice = (page: Page) => page.getByRole("alert").filter({ hasText: `${bob.user.username} reset his account` });
  await notice(alice.page)
    .getByRole("button", { name: `Accept new keys of ${bob.user.username}` })
    .click();
  await expect(notice(alice.page)).toHaveCount(0);
  await openGroup(phone, carol.user.username);
  await expect(
    panel(carol.page).getByText(`The call ended on this device: accept the new keys of ${bob.user.username} to join again.`),
  ).toBeVisible({
    timeout: 30_000,
  });
  await expect(panel(carol.page).getByText("You are no longer a member of this conversation: the call ended.")).toHaveCount(0);
  // Only that is said: nothing of a call goes on on her page (no "alice left the call", no controls, no
  // "In call"), and the notice's "Accept new keys" is not under the call's window.
  await expect(panel(carol.page).getByRole("status")).toHaveCount(0);
  await expect(panel(carol.page).getByRole("button", { name: "Mute" })).toHaveCount(0);
  await expect(carol.page.getByRole("button", { name: "Start call" })).toBeVisible();
  await notice(carol.page)
    .getByRole("button", { name: `Accept new keys of ${bob.user.username}` })
    .click({ trial: true });
  await expect(participants(alice.page)).toHaveCount(1, { timeout: 20_000 });
  await expect(panel(alice.page).getByText("End-to-end encrypted")).toBeVisible();
  await joinCall(phone);
  for (const page of [alice.page, phone]) await expect(participants(page)).toHaveCount(2, { timeout: 20_000 });
  await receivesFrom(phone, alice.id);
  await receivesFrom(alice.page, bob.id);

  // Joining again before accepting says the same, and puts nobody in the call.
  const first = `Accept the new keys of ${bob.user.username} to join this call.`;
  await panel(carol.page).getByRole("button", { name: "Close" }).click();
  await joinCall(carol.page);
  await expect(panel(carol.page).getByText(first)).toBeVisible({ timeout: 20_000 });
  await expect(panel(carol.page).getByText("The call could not be started. Please try again.")).toHaveCount(0);
  await expect(participants(alice.page)).toHaveCount(2);
  await expect(panel(carol.page).getByRole("button", { name: "Mute" })).toHaveCount(0);

  // Once she accepts, she joins them.
  await panel(carol.page).getByRole("button", { name: "Close" }).click();
  await notice(carol.page)
    .getByRole("button", { name: `Accept new keys of ${bob.user.username}` })
    .click();
  await joinCall(carol.page);
  for (const page of [alice.page, carol.page, phone]) await expect(participants(page)).toHaveCount(3, { timeout: 20_000 });
  await receivesFrom(carol.page, bob.id);
  await receivesFrom(phone, carol.id);
});
