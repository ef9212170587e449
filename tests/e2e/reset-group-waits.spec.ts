import { expect, NO_ANSWER } from "./fixtures";
import { log, message, send } from "./helpers";
import { mailTest as test } from "./mail-stack";
import { groupOfThree, openGroup, resetOnNewDevice } from "./reset-helpers";

// A group of three; Bob resets without his recovery key and his new phone gets into the group. Only his
// messages wait for each member's word on his new keys (ADR 0051): Carol, who has not accepted them yet,
// still reads Alice, and what Carol writes waits in her outbox, saying for whom, until she accepts (it used
// to stop the whole group on her page: nobody's messages came, and every send failed with "the
// conversation's keys keep changing").

test("after a member's reset, the others read each other and write before accepting his new keys; what they write waits for their word", async ({
  browser,
  stack,
  consoleErrors,
}) => {
  test.setTimeout(300_000);
  consoleErrors.allow(NO_ANSWER);
  const { smtp, web } = stack;
  const { alice, bob, carol } = await groupOfThree(browser, stack, "crew, hello");
  await send(bob.page, "bob in the crew before his reset");
  for (const page of [alice.page, carol.page])
    await expect(log(page).getByText("bob in the crew before his reset")).toBeVisible({ timeout: 30_000 });
  await bob.context.close();

  // Bob resets on a new phone and writes in the group (Alice's page, open on it, lets his phone in).
  const phone = await resetOnNewDevice(browser, smtp, web.url, bob.user);
  await openGroup(phone, carol.user.username);
  await send(phone, "bob in the crew after his reset");
  await expect(log(phone).getByText("bob in the crew after his reset")).toBeVisible();

  // Alice accepts his new keys and writes.
  const aliceNotice = alice.page.getByRole("alert").filter({ hasText: `${bob.user.username} reset his account` });
  await aliceNotice.getByRole("button", { name: `Accept new keys of ${bob.user.username}` }).click();
  await expect(log(alice.page).getByText("bob in the crew after his reset")).toBeVisible({ timeout: 30_000 });
  await send(alice.page, "alice after accepting");

  // Carol has not accepted: Alice's message comes all the same; Bob's new one waits, counted, and his
  // earlier one stays, marked (ADR 0103).
  const carolNotice = carol.page.getByRole("alert").filter({ hasText: `${bob.user.username} reset his account` });
  await expect(carolNotice).toBeVisible({ timeout: 30_000 });
  await expect(log(carol.page).getByText("alice after accepting")).toBeVisible({ timeout: 30_000 });
  await expect(log(carol.page).getByText("bob in the crew after his reset")).toHaveCount(0);
  await expect(carolNotice).toContainText(`1 message from ${bob.user.username} is waiting for you to accept his new keys`);
  await expect(
    message(carol.page, "bob in the crew before his reset").getByText(`Signed with ${bob.user.username}'s previous key`),
  ).toBeVisible();

  // What Carol writes waits for her word on his keys, saying so; nobody receives it meanwhile.
  await send(carol.page, "carol before accepting");
  const waiting = carol.page.getByRole("list", { name: "Messages not sent yet" });
  await expect(waiting).toContainText(
    `Waiting for you to accept the new keys of ${bob.user.username}: what you write here goes once you do.`,
    { timeout: 30_000 },
  );
  await expect(carol.page.getByText("keys keep changing")).toHaveCount(0);
  await expect(log(alice.page).getByText("carol before accepting")).toHaveCount(0);

  // She accepts: it goes by itself, and reaches Alice and Bob's phone.
  await carolNotice.getByRole("button", { name: `Accept new keys of ${bob.user.username}` }).click();
  await expect(log(carol.page).getByText("bob in the crew after his reset")).toBeVisible({ timeout: 30_000 });
  await expect(waiting).toHaveCount(0, { timeout: 30_000 });
  for (const page of [alice.page, phone]) await expect(log(page).getByText("carol before accepting")).toBeVisible({ timeout: 30_000 });
  await send(phone, "bob reads carol");
  await expect(log(carol.page).getByText("bob reads carol")).toBeVisible({ timeout: 30_000 });
});
