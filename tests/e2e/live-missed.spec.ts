import { expect, NO_ANSWER, test } from "./fixtures";
import { createChannel, joinAndOpen, log, messageTexts, person, send, waitLive } from "./helpers";

// A live message the page could not open as it came (a request it needed failed for a moment: here
// the newcomer's public keys) is asked for again once requests work, in its place, without a reload.
// It was dropped for good: later live messages stepped over it, and only a reload brought it.

test("a live message the page could not open as it came appears once requests work again, in its place", async ({
  browser,
  consoleErrors,
}) => {
  consoleErrors.allow(NO_ANSWER);
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const carol = await person(browser, "carol");
  const password = `room-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Room", password);
  await waitLive(alice.page);
  await send(alice.page, "welcome everyone");
  let failing = true;
  let failed = 0;
  await alice.page.route("**/api/profiles?**", (route) => {
    if (!failing) return route.fallback();
    failed++;
    return route.abort("failed");
  });
  await joinAndOpen(carol.page, channelId, password, "Room");
  await send(carol.page, "carol's first words");
  await expect.poll(() => failed, { timeout: 20_000 }).toBeGreaterThan(0);
  failing = false;
  await send(carol.page, "carol's second words");
  await expect(log(alice.page).getByText("carol's second words")).toBeVisible({ timeout: 20_000 });
  await expect(log(alice.page).getByText("carol's first words")).toBeVisible({ timeout: 20_000 });
  expect(await messageTexts(alice.page)).toEqual(["welcome everyone", "carol's first words", "carol's second words"]);
  for (const p of [alice, carol]) await p.context.close();
});
