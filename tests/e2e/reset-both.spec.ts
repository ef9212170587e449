import { expect, NO_ANSWER } from "./fixtures";
import { createChannel, joinAndOpen, keyPackagesSent, log, openConversation, person, send, startConversation, waitLive } from "./helpers";
import { mailTest as test } from "./mail-stack";
import { resetOnNewDevice } from "./reset-helpers";

// Both people of a one-to-one reset their accounts without their recovery keys (ADR 0098). Its group
// holds their old devices, proven by keys neither new device ever knew, and its list is signed by one
// of them: no page could join the group or sign the list again, so the conversation was dead for good
// (its history shown, every message refused: "Failed to send message."), and "New message" answered the
// same one. Either of them now starts it afresh, and they write to each other again.

const AFRESH = /start it afresh to write to each other again\./;

test("after both reset without their recovery keys, one starts their one-to-one afresh and they write both ways again", async ({
  browser,
  stack,
  consoleErrors,
}) => {
  test.setTimeout(300_000);
  consoleErrors.allow(NO_ANSWER);
  const { smtp, web } = stack;
  const alice = await person(browser, "alice", web.url);
  const bob = await person(browser, "bob", web.url);
  const password = `team-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Team", password);
  await joinAndOpen(bob.page, channelId, password, "Team");
  for (const p of [alice, bob]) await keyPackagesSent(p, stack.pb);
  await startConversation(alice.page, [bob.user.username]);
  await waitLive(alice.page);
  await send(alice.page, "before the resets");
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText("before the resets")).toBeVisible({ timeout: 30_000 });
  await alice.context.close();
  await bob.context.close();

  // Both reset on new laptops, and open the conversation: neither can, and each is offered a fresh start.
  const laptops = [];
  for (const who of [alice, bob]) {
    const page = await resetOnNewDevice(browser, smtp, web.url, who.user);
    laptops.push(page);
  }
  const [alices, bobs] = laptops;
  await openConversation(alices, bob.user.username);
  await openConversation(bobs, alice.user.username);
  for (const page of laptops) await expect(page.getByText(AFRESH)).toBeVisible({ timeout: 30_000 });

  // Bob starts it afresh; Alice's page, open, gets into the new group at once.
  await bobs.getByRole("button", { name: "Start afresh" }).click();
  for (const page of laptops) {
    await expect(page.getByText(AFRESH)).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByText(`${bob.user.username} reset the encryption for this conversation.`).first()).toBeVisible({
      timeout: 30_000,
    });
  }
  await send(alices, "alice after both resets");
  await expect(log(bobs).getByText("alice after both resets")).toBeVisible({ timeout: 30_000 });
  await send(bobs, "bob after both resets");
  await expect(log(alices).getByText("bob after both resets")).toBeVisible({ timeout: 30_000 });
});
