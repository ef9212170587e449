import { expect, test } from "./fixtures";
import { copyInviteLink, createChannel, log, message, openConversation, person, send, startConversation } from "./helpers";
import { asked, colleague, offer, shown, turnOn } from "./notify-offer-helpers";
import { axe } from "./axe";

// Notifications that ask (ADR 0067), with the settings `npm start` uses: nothing is offered at sign-up;
// the first direct message offers "Turn on notifications" in a one-line bar, and the browser's
// permission is asked only when that button is clicked. Once allowed, direct messages notify with no
// other setting. "Not now" dismisses the offer for good.

test("the first direct message offers notifications; the permission is asked only on the click; Not now sticks", async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "Team", `team-${Date.now()}`);
  const link = await copyInviteLink(alice.page);
  const bob = await colleague(browser, "bob", link);
  const carol = await colleague(browser, "carol", link);

  // Not at sign-up: the channel's messages do not offer it either.
  await send(alice.page, "welcome to the team");
  await expect(log(bob.page).getByText("welcome to the team")).toBeVisible();
  await expect(log(carol.page).getByText("welcome to the team")).toBeVisible();
  await expect(turnOn(bob.page)).toHaveCount(0);
  expect(await asked(bob.page)).toBe(0);

  // Alice's first direct message to Bob: the bar, one line, and still no prompt.
  await startConversation(alice.page, [bob.user.username]);
  await send(alice.page, "hello Bob, one question");
  await expect(turnOn(bob.page)).toBeVisible({ timeout: 20_000 });
  const bar = await offer(bob.page).boundingBox();
  expect(bar!.height, "the offer is one line").toBeLessThan(48);
  expect(await asked(bob.page)).toBe(0);
  // On a phone's width its sentence is whole and each button's words on one line (the sentence was cut
  // with "...", "Turn on / notifications" broken in two).
  const size = bob.page.viewportSize()!;
  await bob.page.setViewportSize({ width: 390, height: 844 });
  const sentence = offer(bob.page).getByText("Get notified about direct messages and mentions of you.");
  expect(await sentence.evaluate((p) => p.scrollWidth <= p.clientWidth)).toBe(true);
  for (const name of [/^Turn on notifications$/, /^Not now/]) {
    const button = offer(bob.page).getByRole("button", { name });
    // (the lines its words take: one rectangle per line)
    const lines = await button.evaluate((b) => {
      const range = document.createRange();
      range.selectNodeContents(b);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lines, String(name)).toBe(1);
    const box = (await button.boundingBox())!;
    expect(box.x + box.width, String(name)).toBeLessThanOrEqual(390);
  }
  await bob.page.setViewportSize(size);
  const audit = await axe(bob.page).include(".notify-offer").analyze();
  expect(audit.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  // The click asks the browser (which grants it), and the bar goes.
  await bob.context.grantPermissions(["notifications"]);
  await turnOn(bob.page).click();
  await expect(offer(bob.page)).toHaveCount(0);
  expect(await asked(bob.page)).toBe(1);

  // Direct messages now notify, with no other setting; the offer does not come back after a reload.
  await bob.page.reload();
  await expect(bob.page.getByRole("heading", { name: "# Team" })).toBeVisible({ timeout: 30_000 });
  await send(alice.page, "are you free at three?");
  await expect
    .poll(() => shown(bob.page), { timeout: 20_000 })
    .toContainEqual({
      title: `${alice.user.username} in @${alice.user.username}`,
      body: "are you free at three?",
    });
  await expect(offer(bob.page)).toHaveCount(0);
  expect(await asked(bob.page)).toBe(1);

  // Carol dismisses it: "Not now" sticks across a reload and a later message; nothing was asked.
  await startConversation(alice.page, [carol.user.username]);
  await send(alice.page, "hi Carol");
  await expect(turnOn(carol.page)).toBeVisible({ timeout: 20_000 });
  await offer(carol.page)
    .getByRole("button", { name: /^Not now/ })
    .click();
  await expect(offer(carol.page)).toHaveCount(0);
  await carol.page.reload();
  await openConversation(carol.page, alice.user.username);
  await send(alice.page, "hi again Carol");
  await expect(message(carol.page, "hi again Carol")).toBeVisible();
  await expect(offer(carol.page)).toHaveCount(0);
  expect(await asked(carol.page)).toBe(0);

  await Promise.all([alice.context.close(), bob.context.close(), carol.context.close()]);
});

test("a first direct message that reaches the page before its conversation is listed still offers notifications", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "Team", `team-${Date.now()}`);
  const bob = await colleague(browser, "bob", await copyInviteLink(alice.page));
  // Bob's channel list answers slowly (a slow network): Alice's first message reaches his open page
  // while the list that holds their new conversation is still on its way.
  await bob.page.route("**/api/channels", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await route.continue();
  });
  await startConversation(alice.page, [bob.user.username]);
  await send(alice.page, "a first question, quickly");
  await expect(turnOn(bob.page)).toBeVisible({ timeout: 20_000 });
  await expect(bob.page.getByRole("button", { name: `@ ${alice.user.username}`, exact: true })).toBeVisible();
  expect(await asked(bob.page)).toBe(0);
  await Promise.all([alice.context.close(), bob.context.close()]);
});
