import { expect, signIn, test } from "./fixtures";
import { archivedCount, log, openConversation, send } from "./helpers";
import { aliceAndBobInDm, keepNothingForOthers } from "./dm-helpers";

// What a device read reaches the user's archive (ADR 0048) even when the page goes at once: a DM read
// and the tab reloaded within the archive's batch wait, or read while the archive did not answer and
// the tab then closed, used to be missing for good on every new device of the reader.

test("a DM read right before a reload, or while the archive did not answer and the tab then closed, reaches the reader's new device", async ({
  browser,
}) => {
  const { alice, bob } = await aliceAndBobInDm(browser);
  // (Alice's page keeps nothing of hers for Bob, ADR 0099: what reaches his archive here is what his own devices read)
  await keepNothingForOthers(alice.context);
  await send(alice.page, "first of the day");
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText("first of the day")).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => archivedCount(bob.id), { timeout: 20_000 }).toBe(1);

  // Read, and the page reloaded at once.
  await send(alice.page, "read right before the reload");
  await expect(log(bob.page).getByText("read right before the reload")).toBeVisible({ timeout: 30_000 });
  await bob.page.reload();
  await expect.poll(() => archivedCount(bob.id), { timeout: 20_000 }).toBe(2);

  // Read while the archive does not answer, and the tab closed; the browser opened again later.
  await openConversation(bob.page, alice.user.username);
  // (its request hangs, unanswered, when the tab closes)
  let held = 0;
  await bob.context.route("**/api/archive/*", (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    held++;
  });
  await send(alice.page, "read while the archive was away");
  await expect(log(bob.page).getByText("read while the archive was away")).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => held).toBeGreaterThan(0);
  // what waits is kept in the browser's storage, sealed: the text is in none of it
  const stored = await bob.page.evaluate(() => Object.entries(localStorage));
  expect(stored.filter(([name]) => name.startsWith(`chatcrypt.archive-pending.`))).toHaveLength(1);
  expect(stored.filter(([, value]) => value.includes("read while the archive was away"))).toEqual([]);
  await bob.page.close();
  await bob.context.unroute("**/api/archive/*");
  const again = await bob.context.newPage();
  await again.goto("/");
  await expect.poll(() => archivedCount(bob.id), { timeout: 20_000 }).toBe(3);

  // Bob's new laptop shows all three.
  const laptopContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const laptop = await laptopContext.newPage();
  await signIn(laptop, bob.user);
  await openConversation(laptop, alice.user.username);
  for (const text of ["first of the day", "read right before the reload", "read while the archive was away"])
    await expect(log(laptop).getByText(text, { exact: true })).toBeVisible({ timeout: 30_000 });
  await laptopContext.close();
});
