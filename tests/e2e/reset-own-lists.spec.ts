import type { Page } from "@playwright/test";
import { expect, NO_ANSWER } from "./fixtures";
import { log, openConversation, send, startConversation, waitLive, type Person } from "./helpers";
import { mailTest as test } from "./mail-stack";
import { resetOnNewDevice, threeInTeam } from "./reset-helpers";

// A direct conversation's list of participants (ADR 19) is signed by whoever set it last: here Bob,
// who started the conversations. After Bob's reset without the recovery key (ADR 0051) his new phone
// cannot check his own old signature (the key went with the reset), and used to stay out of both
// conversations for good: "could not be opened on this device", and every send refused. Now it says
// what it waits for; the first page of another participant that opens or writes signs the list again
// with its own key (a page open all along too), and Bob's phone gets in as soon as that commit lands.

/** Bob starts a one-to-one with Alice and writes in it; her page reads it. */
async function bobStartsOneToOne(alice: Person, bob: Person) {
  await startConversation(bob.page, [alice.user.username]);
  await waitLive(bob.page);
  await send(bob.page, "bob started this");
  await openConversation(alice.page, bob.user.username);
  await expect(log(alice.page).getByText("bob started this")).toBeVisible({ timeout: 30_000 });
}

const group = (page: Page, username: string) => page.getByRole("button", { name: new RegExp(`^@ .*${username}.*$`) });

test("after a reset without the recovery key, the person who started a one-to-one and a group gets back into both on a new device", async ({
  browser,
  stack,
  consoleErrors,
}) => {
  test.setTimeout(300_000);
  consoleErrors.allow(NO_ANSWER);
  const { smtp, web } = stack;
  const { alice, bob, carol } = await threeInTeam(browser, stack);

  // Bob starts a one-to-one with Alice and a group with Alice and Carol.
  await bobStartsOneToOne(alice, bob);
  await startConversation(bob.page, [alice.user.username, carol.user.username]);
  await waitLive(bob.page);
  await send(bob.page, "bob started the group");
  await group(carol.page, bob.user.username).click();
  await expect(log(carol.page).getByText("bob started the group")).toBeVisible({ timeout: 30_000 });
  // (their pages on another conversation: one open on his would sign its list again at once, live; the
  // last test)
  await alice.page.getByRole("button", { name: "# Team", exact: true }).click();
  await carol.page.getByRole("button", { name: "# Team", exact: true }).click();
  await bob.context.close();

  // Bob resets on his phone and opens the one-to-one: it says what it waits for.
  const phone = await resetOnNewDevice(browser, smtp, web.url, bob.user);
  await openConversation(phone, alice.user.username);
  await expect(phone.getByText(/signed with your keys from before your account was reset/).first()).toBeVisible({ timeout: 30_000 });

  // Alice opens the conversation again, on the page open since before Bob's reset: her page signs the
  // list again, and Bob's phone gets in (until her page was reloaded, it went on taking Bob's old key
  // for his key of now, and nothing happened).
  const joined = (page: Page) => page.getByText("Messages sent before this device joined the conversation cannot be read here.");
  await alice.page.getByRole("button", { name: "# Team", exact: true }).click();
  await openConversation(alice.page, bob.user.username);
  await expect(joined(phone)).toBeVisible({ timeout: 30_000 });
  await send(phone, "bob back in the one-to-one");
  const notice = alice.page.getByRole("alert").filter({ hasText: `${bob.user.username} reset his account` });
  await notice.getByRole("button", { name: `Accept new keys of ${bob.user.username}` }).click();
  await expect(log(alice.page).getByText("bob back in the one-to-one")).toBeVisible({ timeout: 30_000 });
  await send(alice.page, "alice after bob's reset");
  await expect(log(phone).getByText("alice after bob's reset")).toBeVisible({ timeout: 30_000 });

  // The group the same, once Carol opens it.
  await group(phone, carol.user.username).click();
  await expect(phone.getByText(/signed with your keys from before your account was reset/).first()).toBeVisible({ timeout: 30_000 });
  await carol.page.getByRole("button", { name: "# Team", exact: true }).click();
  await group(carol.page, bob.user.username).click();
  await expect(joined(phone)).toBeVisible({ timeout: 30_000 });
  await send(phone, "bob back in the group");
  const carolNotice = carol.page.getByRole("alert").filter({ hasText: `${bob.user.username} reset his account` });
  await carolNotice.getByRole("button", { name: `Accept new keys of ${bob.user.username}` }).click();
  await expect(log(carol.page).getByText("bob back in the group")).toBeVisible({ timeout: 30_000 });
  await send(carol.page, "carol to the group");
  await expect(log(phone).getByText("carol to the group")).toBeVisible({ timeout: 30_000 });
  await expect(phone.getByText(/could not be verified/)).toHaveCount(0);
});

// The other person's page is open on the one-to-one all along and nobody touches it: it hears that Bob's
// keys changed (live, his id only) and signs the list again, so his new phone gets in without her doing
// anything (it waited until she opened the conversation again or wrote: 90 s without it here).
test("after a reset without the recovery key, the new device of the person who started a one-to-one gets in while the other's page just stays open on it", async ({
  browser,
  stack,
  consoleErrors,
}) => {
  test.setTimeout(240_000);
  consoleErrors.allow(NO_ANSWER);
  const { smtp, web } = stack;
  const { alice, bob } = await threeInTeam(browser, stack);
  await bobStartsOneToOne(alice, bob);
  await bob.context.close();

  const phone = await resetOnNewDevice(browser, smtp, web.url, bob.user);
  await openConversation(phone, alice.user.username);
  await expect(phone.getByText("Messages sent before this device joined the conversation cannot be read here.")).toBeVisible({
    timeout: 30_000,
  });
  await send(phone, "bob back while her page stayed open");
  await alice.page
    .getByRole("alert")
    .filter({ hasText: `${bob.user.username} reset his account` })
    .getByRole("button", { name: `Accept new keys of ${bob.user.username}` })
    .click();
  await expect(log(alice.page).getByText("bob back while her page stayed open")).toBeVisible({ timeout: 30_000 });
});
