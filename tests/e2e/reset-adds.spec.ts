import { expect, NO_ANSWER } from "./fixtures";
import { log, person, send } from "./helpers";
import { openDetail } from "./header-helpers";
import { mailTest as test } from "./mail-stack";
import { acceptNewKeys, groupOfThree, openGroup, resetOnNewDevice } from "./reset-helpers";

// Bob resets without his recovery key and, on his new phone, adds Dave to the group of Alice, Bob and
// Carol. The new list of participants is signed with keys Alice and Carol have not accepted yet: their
// pages used to call it changed "without a participant's signature" and sign the old list again, which
// took Dave out, and Dave's page said the list "could not be verified". Now the list waits, on each of
// their pages, for their word on Bob's new keys (RosterGuard.pending, ADR 0051), and holds once given.

test("a member who reset adds someone: the others' pages hold the new list until they accept his keys, then everyone reads everyone", async ({
  browser,
  stack,
  consoleErrors,
}) => {
  test.setTimeout(300_000);
  consoleErrors.allow(NO_ANSWER);
  const { smtp, web } = stack;
  const { alice, bob, carol } = await groupOfThree(browser, stack, "crew, hello");
  const dave = await person(browser, "dave", web.url);
  await bob.context.close();
  const phone = await resetOnNewDevice(browser, smtp, web.url, bob.user);
  await openGroup(phone, carol.user.username);
  await send(phone, "bob after his reset");
  await expect(log(phone).getByText("bob after his reset")).toBeVisible();

  // Bob adds Dave, who shares no channel with him (found by his username; a request Dave accepts).
  await openDetail(phone, "Invite people");
  const dialog = phone.getByRole("dialog", { name: "Add people" });
  await dialog.getByLabel("Find by username").fill(dave.user.username);
  await dialog.getByRole("button", { name: "Look up" }).click();
  await dialog.getByRole("checkbox", { name: dave.user.username }).check();
  await dialog.getByRole("button", { name: "Add", exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await dave.page
    .getByRole("group", { name: `${bob.user.username} wants to message you` })
    .getByRole("button", { name: "Accept" })
    .click();
  await openGroup(dave.page, alice.user.username);

  // Dave and Bob read each other; nothing says the list could not be verified.
  await send(dave.page, "dave says hi");
  await expect(log(phone).getByText("dave says hi")).toBeVisible({ timeout: 30_000 });
  await send(phone, "bob welcomes dave");
  await expect(log(dave.page).getByText("bob welcomes dave")).toBeVisible({ timeout: 30_000 });
  await expect(dave.page.getByText("could not be verified")).toHaveCount(0);

  // Alice has not accepted Bob's new keys: the change waits for her, and so does what she writes.
  await expect(
    alice.page.getByText(
      `${bob.user.username} changed who is in this conversation with new keys you have not accepted yet: the change holds on this device once you accept them.`,
    ),
  ).toBeVisible({ timeout: 30_000 });
  await expect(alice.page.getByText("without a participant's signature")).toHaveCount(0);
  await send(alice.page, "alice before accepting");
  await expect(alice.page.getByRole("list", { name: "Messages not sent yet" })).toContainText(
    `Waiting for you to accept the new keys of ${bob.user.username}: what you write here goes once you do.`,
    { timeout: 30_000 },
  );

  // She accepts: her message goes, to Dave too, and Bob's wait no more.
  await acceptNewKeys(alice.page, bob.user.username);
  for (const page of [dave.page, phone]) await expect(log(page).getByText("alice before accepting")).toBeVisible({ timeout: 30_000 });
  await expect(log(alice.page).getByText("bob welcomes dave")).toBeVisible({ timeout: 30_000 });
  await expect(alice.page.getByText(/changed who is in this conversation/)).toHaveCount(0);

  // Carol too; then everyone reads Dave.
  await acceptNewKeys(carol.page, bob.user.username);
  await send(carol.page, "carol after accepting");
  for (const page of [dave.page, phone, alice.page])
    await expect(log(page).getByText("carol after accepting")).toBeVisible({ timeout: 30_000 });
  await send(dave.page, "dave at the end");
  for (const page of [carol.page, phone, alice.page]) await expect(log(page).getByText("dave at the end")).toBeVisible({ timeout: 30_000 });
});
