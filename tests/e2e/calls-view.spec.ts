import type { Locator, Page } from "@playwright/test";
import { expect, test, TRACK_OF_GONE_PARTICIPANT } from "./fixtures";
import { expectAccessible } from "./axe";
import { joinFromCheck, receivesFrom } from "./calls-helpers";
import { createChannel, joinAndOpen, log, person } from "./helpers";

// Calls that fit (issue 46, ADR 70): a check of camera and microphone before joining ("Join call",
// a name no other button has), an expanded view over the conversation with grid and speaker layouts
// and a shared screen shown large, and one line per call in the conversation, written by the server
// when the room empties, whoever leaves last and however: both at once with "Leave call", or both
// closing their tabs.

const panelOf = (page: Page) => page.getByRole("region", { name: "Call", exact: true });
const width = async (locator: Locator) => (await locator.boundingBox())?.width ?? 0;

test("the check of devices before joining, and the expanded view: grid, speaker, a shared screen at least 640 px wide", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [alice, bob] = await Promise.all(["alice", "bob"].map((name) => person(browser, name)));
  for (const p of [alice, bob]) await p.page.setViewportSize({ width: 1280, height: 800 });
  const password = `view-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Studio", password);
  await joinAndOpen(bob.page, channelId, password, "Studio");

  // Before joining: her own camera, her microphone's level moving, the devices to pick.
  await alice.page.getByRole("button", { name: "Start call" }).click();
  const check = panelOf(alice.page).getByRole("group", { name: "Check your camera and microphone" });
  await expect(check.getByLabel("Your camera")).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(() => check.evaluate((el) => (el.querySelector("video") as HTMLVideoElement).videoWidth), { timeout: 20_000 })
    .toBeGreaterThan(0);
  const level = check.getByLabel("Microphone level");
  await expect.poll(() => level.evaluate((m) => (m as HTMLMeterElement).value), { timeout: 20_000 }).toBeGreaterThan(0);
  for (const name of ["Microphone", "Camera"]) {
    const picker = check.getByLabel(name, { exact: true });
    await expect(picker).toBeEnabled();
    expect(await picker.locator("option").count()).toBeGreaterThan(0);
  }
  // (nothing of the call yet: no participants, no "Leave call")
  await expect(panelOf(alice.page).getByRole("list", { name: "Participants" })).toHaveCount(0);
  await expectAccessible(alice.page, "the check of devices before a call");
  await check.getByRole("button", { name: "Join call" }).click();
  await expect(panelOf(alice.page).getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });

  // Bob joins from the bar: its button is "Join call", a name no other button on his page has.
  const join = bob.page.getByRole("button", { name: "Join call", exact: true });
  await expect(join).toHaveCount(1, { timeout: 15_000 });
  await expect(bob.page.getByRole("region", { name: "Call in progress" }).getByRole("button", { name: "Join call" })).toBeVisible();
  await join.click();
  await joinFromCheck(bob.page);
  await receivesFrom(alice.page, bob.id);
  await receivesFrom(bob.page, alice.id);

  // Expanded, the call covers the conversation; a screen Bob shares is as wide as it.
  const panel = panelOf(alice.page);
  await panel.getByRole("button", { name: "Expand call" }).click();
  await expect(panel.getByRole("button", { name: "Expand call" })).toHaveAttribute("aria-pressed", "true");
  const conversation = await alice.page.locator(".chat-main").boundingBox();
  await expect.poll(() => panel.boundingBox()).toMatchObject({ x: conversation!.x, width: conversation!.width });
  await bob.page.getByRole("region", { name: "Call", exact: true }).getByRole("button", { name: "Share screen" }).click();
  const screen = panel.getByLabel(`${bob.user.username}'s screen`);
  await expect(screen).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => width(screen)).toBeGreaterThanOrEqual(640);
  console.log(`expanded view at 1280x800: the shared screen is ${await width(screen)} px wide`);
  await alice.page.screenshot({ path: test.info().outputPath("expanded-grid-screen.png") });
  await expectAccessible(alice.page, "the expanded call with a shared screen");

  // Speaker layout: the screen stays large; without it, the other person is large.
  const layouts = panel.getByRole("group", { name: "Layout" });
  await layouts.getByRole("button", { name: "Speaker" }).click();
  await expect(layouts.getByRole("button", { name: "Speaker" })).toHaveAttribute("aria-pressed", "true");
  await expect(layouts.getByRole("button", { name: "Grid" })).toHaveAttribute("aria-pressed", "false");
  await expect.poll(() => width(screen)).toBeGreaterThanOrEqual(640);
  await bob.page.getByRole("region", { name: "Call", exact: true }).getByRole("button", { name: "Stop sharing" }).click();
  await expect(screen).toBeHidden({ timeout: 20_000 });
  const bobCamera = panel.getByLabel(`${bob.user.username}'s camera`);
  await expect.poll(() => width(bobCamera)).toBeGreaterThanOrEqual(640);
  const aliceCamera = panel.getByLabel(`${alice.user.username} (you)'s camera`);
  expect(await width(aliceCamera)).toBeLessThan(320);
  await alice.page.screenshot({ path: test.info().outputPath("expanded-speaker.png") });
  await expectAccessible(alice.page, "the expanded call, speaker layout");
  // Grid: everyone alike.
  await layouts.getByRole("button", { name: "Grid" }).click();
  await expect.poll(async () => Math.abs((await width(bobCamera)) - (await width(aliceCamera)))).toBeLessThan(2);

  // Esc goes back to the call's window.
  await alice.page.keyboard.press("Escape");
  await expect(panel.getByRole("button", { name: "Expand call" })).toHaveAttribute("aria-pressed", "false");
  expect(await width(panel)).toBeLessThanOrEqual(440);
  for (const p of [alice, bob]) await p.context.close();
});

test("two people who hang up in the same second leave exactly one call line; so do two who close their tabs", async ({
  browser,
  consoleErrors,
}) => {
  test.setTimeout(240_000);
  consoleErrors.allow(TRACK_OF_GONE_PARTICIPANT);
  const [alice, bob, carol] = await Promise.all(["alice", "bob", "carol"].map((name) => person(browser, name)));
  const password = `hangup-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Standup", password);
  for (const p of [bob, carol]) await joinAndOpen(p.page, channelId, password, "Standup");
  const line = /^Call ended · (less than a minute|\d+ min)$/;

  async function call(a: Page, b: Page) {
    await a.getByRole("button", { name: "Start call" }).click();
    await joinFromCheck(a);
    await expect(panelOf(a).getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
    await b.getByRole("region", { name: "Call in progress" }).getByRole("button", { name: "Join call" }).click();
    await joinFromCheck(b);
    for (const page of [a, b])
      await expect(panelOf(page).getByRole("list", { name: "Participants" }).getByRole("listitem")).toHaveCount(2, { timeout: 20_000 });
  }

  // Both press "Leave call" in the same instant.
  await call(alice.page, bob.page);
  await Promise.all([alice, bob].map((p) => panelOf(p.page).getByRole("button", { name: "Leave call" }).click()));
  for (const p of [alice, bob, carol]) await expect(log(p.page).getByText(line)).toHaveCount(1, { timeout: 30_000 });
  await expect(log(alice.page).getByText("Call ended · less than a minute")).toHaveCount(1);
  // ... and it stays one, also after a reload.
  await alice.page.reload();
  await expect(alice.page.getByRole("heading", { name: "# Standup" })).toBeVisible({ timeout: 20_000 });
  await expect(log(alice.page).getByText(line)).toHaveCount(1, { timeout: 20_000 });

  // Both close their tabs mid-call: Carol, who was not in it, sees one more line.
  await call(alice.page, bob.page);
  await Promise.all([alice.page.close(), bob.page.close()]);
  await expect(log(carol.page).getByText(line)).toHaveCount(2, { timeout: 45_000 });
  await carol.page.reload();
  await expect(log(carol.page).getByText(line)).toHaveCount(2, { timeout: 20_000 });
  await expectAccessible(carol.page, "a conversation with call lines");
  for (const p of [alice, bob, carol]) await p.context.close();
});
