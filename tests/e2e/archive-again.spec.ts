import { expect, signIn, test } from "./fixtures";
import { archivedCount, log, message, openConversation, send } from "./helpers";
import { aliceAndBobInDm, keepNothingForOthers } from "./dm-helpers";

// A device reads what it could not open from before it joined in the user's archive (ADR 0048). It read
// the archive only the first time it opened the conversation: what another device of the user read
// after that (an edit and a message written while the old laptop was closed, read when it reopened)
// stayed "cannot be read here" on the new device for good.
test("a new device reads from the archive what the user's old device read after the new one first looked", async ({ browser }) => {
  test.setTimeout(180_000);
  const { alice, bob } = await aliceAndBobInDm(browser);
  // (Alice's page keeps nothing of hers for Bob, ADR 0099: what reaches his archive here is what his own devices read)
  await keepNothingForOthers(alice.context);
  await send(alice.page, "apple as first written");
  await openConversation(bob.page, alice.user.username);
  await expect(message(bob.page, "apple as first written")).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => archivedCount(bob.id), { timeout: 20_000 }).toBe(1);
  // Bob's old laptop is closed; Alice edits and writes on.
  await bob.page.close();
  const own = alice.page.locator(`[id="${await message(alice.page, "apple as first written").getAttribute("id")}"]`);
  await own.hover();
  await own.getByRole("button", { name: "Edit", exact: true }).click();
  await own.getByLabel("Edit message").fill("apple as edited");
  await own.getByLabel("Edit message").press("Enter");
  await send(alice.page, "grape while the laptop was closed");

  // Bob's new device opens the conversation: it cannot read either (they were sealed before it joined).
  const tablet = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const newDevice = await tablet.newPage();
  await signIn(newDevice, bob.user);
  await openConversation(newDevice, alice.user.username);
  await expect(newDevice.getByText(/cannot be read here/)).toBeVisible({ timeout: 30_000 });
  await expect(message(newDevice, "grape while the laptop was closed")).toHaveCount(0);

  // The old laptop opens again and reads both, into the archive.
  const laptop = await bob.context.newPage();
  await laptop.goto("/");
  await openConversation(laptop, alice.user.username);
  await expect(message(laptop, "grape while the laptop was closed")).toBeVisible({ timeout: 30_000 });
  await expect(message(laptop, "apple as edited")).toBeVisible();
  await expect.poll(() => archivedCount(bob.id), { timeout: 20_000 }).toBe(3);

  // The new device, opened again, reads them there: the edit and the message, and says nothing is missing.
  await newDevice.reload();
  await openConversation(newDevice, alice.user.username);
  await expect(message(newDevice, "grape while the laptop was closed")).toBeVisible({ timeout: 30_000 });
  await expect(message(newDevice, "apple as edited")).toContainText("(edited)");
  await expect(log(newDevice).getByText("apple as first written")).toHaveCount(0);
  await expect(newDevice.getByText(/cannot be read here/)).toHaveCount(0);
  for (const context of [alice.context, bob.context, tablet]) await context.close();
});

// A message sent from the user's laptop just as a new device of theirs opens the conversation is sealed
// for the group before the new device's join: the new device reads it in the archive, where the laptop
// puts it a moment later. It said "cannot be read here" and lacked it until a reload.
test("a message the user's other device sends as a new device joins shows on the new device without a reload", async ({ browser }) => {
  test.setTimeout(180_000);
  const { alice, bob } = await aliceAndBobInDm(browser);
  await openConversation(bob.page, alice.user.username);
  await send(alice.page, "before the new device");
  await expect(message(bob.page, "before the new device")).toBeVisible({ timeout: 30_000 });
  const tablet = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const newDevice = await tablet.newPage();
  await signIn(newDevice, alice.user);
  await openConversation(newDevice, bob.user.username);
  await send(alice.page, "sent by the laptop as the tablet joined");
  await send(bob.page, "bob answers at once");
  await expect(message(newDevice, "bob answers at once")).toBeVisible({ timeout: 30_000 });
  await expect(message(newDevice, "sent by the laptop as the tablet joined")).toBeVisible({ timeout: 30_000 });
  await expect(newDevice.getByText(/cannot be read here/)).toHaveCount(0);
  for (const context of [alice.context, bob.context, tablet]) await context.close();
});
