import { expect, NO_ANSWER } from "./fixtures";
import { log, openConversation, send } from "./helpers";
import { mailTest as test } from "./mail-stack";
import { acceptNewKeys, oneToOneBothWays, resetOnNewDevice, threeInTeam } from "./reset-helpers";

// Bob resets without his recovery key. Alice, whose page is open on their one-to-one, writes at once,
// before his new phone is in the conversation: her message used to be sealed for his device of before
// the reset (signed out by it) and showed as sent, and his phone never read it. It now waits in her
// outbox for his new device, then for her word on his new keys, and reaches the phone.

test("written to someone who just reset, before his new device is in: it waits for that device, and reaches it", async ({
  browser,
  stack,
  consoleErrors,
}) => {
  test.setTimeout(300_000);
  consoleErrors.allow(NO_ANSWER);
  const { smtp, web } = stack;
  const { alice, bob } = await threeInTeam(browser, stack);
  await oneToOneBothWays(alice, bob, ["alice before his reset", "bob before his reset"]);
  await bob.context.close();
  const phone = await resetOnNewDevice(browser, smtp, web.url, bob.user);

  await send(alice.page, "alice right after his reset");
  const waiting = alice.page.getByRole("list", { name: "Messages not sent yet" });
  await expect(waiting).toContainText(`Waiting for ${bob.user.username}'s device...`, { timeout: 30_000 });

  // His phone opens the conversation: her message waits for her word on his new keys now, then goes.
  await openConversation(phone, alice.user.username);
  await expect(waiting).toContainText(`Waiting for you to accept the new keys of ${bob.user.username}`, { timeout: 30_000 });
  await acceptNewKeys(alice.page, bob.user.username);
  await expect(log(phone).getByText("alice right after his reset")).toBeVisible({ timeout: 30_000 });
  await expect(waiting).toHaveCount(0);
  await send(phone, "bob read it");
  await expect(log(alice.page).getByText("bob read it")).toBeVisible({ timeout: 30_000 });
});
