import { expect, signIn, test, TRACK_OF_GONE_PARTICIPANT } from "./fixtures";
import { startCall } from "./calls-helpers";
import {
  createChannel,
  joinAndOpen,
  keyPackagesSent,
  log,
  openConversation,
  person,
  recordNotifications,
  startConversation,
  waitLive,
} from "./helpers";
import { deliverPush, notifications, pushesFor, standInSubscription, turnOnPush, usePushServiceStandIn } from "./push-helpers";

// A direct call rings the other person (ADR 32): on their open page wherever they are in the app,
// through the live stream ("<name> is calling": Join, Decline, Esc), and through Web Push when their
// tab is closed (the push service stand-in of push.spec.ts). A ring stops when the caller hangs up.

test("a direct call rings the other person in the page wherever they are, stops when the caller hangs up, and reaches a closed tab through Web Push", async ({
  browser,
  consoleErrors,
}) => {
  // (LiveKit's client says so when a participant's track arrives just after that participant left the call)
  consoleErrors.allow(TRACK_OF_GONE_PARTICIPANT);
  test.setTimeout(180_000);
  // (a name of 32 characters: on a phone it ran past the ring's dialog)
  const alice = await person(browser, "alexandra_montgomery_ab");
  const bob = await person(browser, "bob");
  const sub = await standInSubscription();
  await usePushServiceStandIn(bob.context, sub);
  // (his window is in the background: a ring there shows a desktop notification too)
  await recordNotifications(bob.context);
  await bob.page.reload();
  const password = `ring-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Ring Team", password);
  await joinAndOpen(bob.page, channelId, password, "Ring Team");
  await keyPackagesSent(bob);
  await startConversation(alice.page, [bob.user.username]);
  await expect(alice.page.getByRole("heading", { name: `@ ${bob.user.username}` })).toBeVisible();
  await turnOnPush(bob.page);

  const alicePanel = alice.page.getByRole("region", { name: "Call", exact: true });
  const ring = bob.page.getByRole("dialog", { name: `${alice.user.username} is calling` });
  const call = async () => {
    await startCall(alice.page);
    await expect(alicePanel.getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  };
  const hangUp = async () => {
    await alicePanel.getByRole("button", { name: "Leave call" }).click();
    await expect(alicePanel).toBeHidden();
  };

  // Bob is writing in the channel when Alice calls: it rings there; Esc declines, and his focus is back.
  const composer = bob.page.getByLabel("Message", { exact: true });
  await composer.focus();
  await call();
  await expect(ring).toBeVisible({ timeout: 15_000 });
  await expect(ring.getByRole("button", { name: "Join" })).toBeFocused();
  const shown = () => bob.page.evaluate(() => (window as unknown as { __shown: { title: string; body: string }[] }).__shown);
  expect(await shown()).toEqual([
    { title: `${alice.user.username} is calling`, body: `A call in your direct conversation with ${alice.user.username}.` },
  ]);
  await bob.page.keyboard.press("Escape");
  await expect(ring).toBeHidden();
  await expect(composer).toBeFocused();
  await hangUp();

  // Alice hangs up before Bob answers: the ring stops by itself.
  await call();
  await expect(ring).toBeVisible({ timeout: 15_000 });
  await hangUp();
  await expect(ring).toBeHidden({ timeout: 15_000 });

  // Nobody answered: once the call's room closes (ADR 70), Bob's conversation says he missed Alice's
  // call, and hers that it was not answered (both read "Call ended · less than a minute").
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText(`Missed call from ${alice.user.username}`, { exact: true })).toHaveCount(1, { timeout: 30_000 });
  await expect(log(alice.page).getByText("Call not answered", { exact: true })).toHaveCount(1, { timeout: 30_000 });

  // Decline, with Bob's second device open too: it rang there as well and stops with the decline (it
  // went on ringing), and Alice's call says so.
  const tablet = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const bobTwo = await tablet.newPage();
  await signIn(bobTwo, bob.user);
  await expect(bobTwo.getByText(`@${bob.user.username}`)).toBeAttached({ timeout: 20_000 });
  // (a ring is news on the live stream: a device that connects after the call started is not rung)
  await waitLive(bobTwo);
  const ringTwo = bobTwo.getByRole("dialog", { name: `${alice.user.username} is calling` });
  await call();
  await expect(ring).toBeVisible({ timeout: 15_000 });
  await expect(ringTwo).toBeVisible({ timeout: 15_000 });
  await ring.getByRole("button", { name: "Decline" }).click();
  await expect(ring).toBeHidden();
  await expect(ringTwo).toBeHidden({ timeout: 10_000 });
  await expect(alicePanel.getByRole("status").filter({ hasText: `${bob.user.username} declined the call.` })).toBeVisible({
    timeout: 10_000,
  });
  await expect(bob.page.getByRole("region", { name: "Call", exact: true })).toHaveCount(0);
  await hangUp();
  // Declined is no missed call: Bob's conversation says he declined it, Alice's who did.
  await expect(log(bob.page).getByText(`Declined call from ${alice.user.username}`, { exact: true })).toHaveCount(1, { timeout: 30_000 });
  await expect(log(alice.page).getByText(`Call declined by ${bob.user.username}`, { exact: true })).toHaveCount(1, { timeout: 30_000 });
  await expect(log(bob.page).getByText(`Missed call from ${alice.user.username}`, { exact: true })).toHaveCount(1);

  // Answered on the second device: the first stops ringing (it went on, and joining there too put Bob
  // in the call twice).
  await call();
  await expect(ring).toBeVisible({ timeout: 15_000 });
  await expect(ringTwo).toBeVisible({ timeout: 15_000 });
  // (with the keyboard: the call's window takes the focus, not the page behind the ring)
  await ringTwo.getByRole("button", { name: "Join" }).press("Enter");
  await expect(ring).toBeHidden({ timeout: 10_000 });
  await expect(bobTwo.getByRole("region", { name: "Call", exact: true }).getByRole("button", { name: "Mute" })).toBeFocused();
  await expect(alicePanel.getByRole("list", { name: "Participants" }).getByRole("listitem")).toHaveCount(2, { timeout: 20_000 });
  // The first device, in the conversation, says Bob is in the call on another device (it offered only to join).
  await openConversation(bob.page, alice.user.username);
  await expect(bob.page.getByRole("region", { name: "Call in progress" })).toContainText(
    "Call in progress — 2 people in it, you among them on another device",
    { timeout: 20_000 },
  );
  await bobTwo.getByRole("region", { name: "Call", exact: true }).getByRole("button", { name: "Leave call" }).click();
  await tablet.close();
  await hangUp();

  // On a phone the ring fits the screen, its buttons within reach.
  await bob.page.setViewportSize({ width: 390, height: 844 });
  await call();
  await expect(ring).toBeVisible({ timeout: 15_000 });
  const heading = (await ring.getByRole("heading").boundingBox())!;
  expect(heading.x >= 0 && heading.x + heading.width <= 390, "the ring's title fits the screen").toBe(true);
  await expect.poll(() => ring.getByRole("heading").evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  for (const name of ["Join", "Decline"]) {
    const box = await ring.getByRole("button", { name }).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, name).toBe(true);
    // (as tall as the call's own controls on a phone: a finger's size)
    expect(box!.height, name).toBeGreaterThanOrEqual(44);
  }
  await ring.getByRole("button", { name: "Decline" }).click();
  await hangUp();

  // Bob's tab is closed (his browser and its service worker stay): the call reaches it as a push,
  // naming who calls and no message.
  await bob.page.goto("about:blank");
  // (the call's own entry, posted as Alice hangs up, may be pushed too: the ring is the push of kind "call")
  const rings = async () => (await pushesFor(sub.id)).filter((p) => (JSON.parse(p.payload) as { k?: string }).k === "call");
  await expect(async () => {
    await call();
    try {
      await expect.poll(async () => (await rings()).length, { timeout: 3_000 }).toBeGreaterThan(0);
    } finally {
      await hangUp();
    }
  }).toPass({ timeout: 60_000 });
  const pushes = await rings();
  expect(pushes).toHaveLength(1);
  const payload = JSON.parse(pushes[0].payload) as Record<string, unknown>;
  expect(payload).toMatchObject({ k: "call", d: true, s: alice.id, u: alice.user.username, m: "" });
  expect(payload.e).toBeUndefined();
  await deliverPush(bob.page, pushes[0].payload);
  await bob.page.goto("/manifest.webmanifest");
  await expect
    .poll(() => notifications(bob.page))
    .toEqual([{ title: `${alice.user.username} is calling`, body: "Open ChatCrypt to join the call." }]);

  for (const p of [alice, bob]) await p.context.close();
});
