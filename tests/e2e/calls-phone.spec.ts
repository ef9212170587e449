import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { joinCall, joinFromCheck, receivesFrom } from "./calls-helpers";
import { createChannel, joinAndOpen, log, person, send, uncovered } from "./helpers";

// The call on a 390x844 phone (issue 46, ADR 70): the check of devices fits the screen, the expanded
// call fills the conversation with its controls side by side, none over another, and a shared screen
// takes the whole width the call has.

const PHONE = { width: 390, height: 844 };
const panelOf = (page: Page) => page.getByRole("region", { name: "Call", exact: true });
type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every control lies inside the screen, is a finger's size (44 px tall), and no two of them overlap (their bounding boxes). */
async function fitApart(controls: Record<string, Locator>) {
  const boxes: [string, Box][] = [];
  for (const [name, control] of Object.entries(controls)) {
    await expect(control, name).toBeVisible();
    const box = (await control.boundingBox())!;
    if ((await control.evaluate((e) => e.tagName)) === "BUTTON")
      expect(box.height, `${name} is tall enough to tap`).toBeGreaterThanOrEqual(44);
    expect(box.x, `${name} starts on the screen`).toBeGreaterThanOrEqual(0);
    expect(box.y, `${name} starts on the screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${name} ends on the screen`).toBeLessThanOrEqual(PHONE.width + 0.5);
    expect(box.y + box.height, `${name} ends on the screen`).toBeLessThanOrEqual(PHONE.height + 0.5);
    for (const [other, seen] of boxes) expect(overlap(box, seen), `${name} overlaps ${other}`).toBe(false);
    boxes.push([name, box]);
  }
}

test("on a phone: the check of devices fits, and the expanded call fills the conversation with its controls apart and a shared screen full width", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // (names of 32 characters: a long name widened its tile and pushed the other's off the screen)
  const [alice, bob] = await Promise.all(["alexandra_montgomery_ab", "bartholomew_fitzgeraldz"].map((name) => person(browser, name)));
  const password = `phone-call-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Pocket", password);
  await joinAndOpen(bob.page, channelId, password, "Pocket");
  await alice.page.setViewportSize(PHONE);

  // The check of devices: camera, level, pickers and both buttons on the screen, apart.
  await alice.page.getByRole("button", { name: "Start call" }).click();
  const panel = panelOf(alice.page);
  const check = panel.getByRole("group", { name: "Check your camera and microphone" });
  await expect(check.getByLabel("Your camera")).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(() => check.evaluate((el) => (el.querySelector("video") as HTMLVideoElement).videoWidth), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await fitApart({
    "Your camera": check.getByLabel("Your camera"),
    "Microphone level": check.getByLabel("Microphone level"),
    Microphone: check.getByLabel("Microphone", { exact: true }),
    Camera: check.getByLabel("Camera", { exact: true }),
    "Join call": check.getByRole("button", { name: "Join call" }),
    Cancel: check.getByRole("button", { name: "Cancel" }),
  });
  await alice.page.screenshot({ path: test.info().outputPath("phone-check.png") });
  await expectAccessible(alice.page, "phone: the check of devices before a call");
  await joinFromCheck(alice.page);
  await expect(panel.getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  await joinCall(bob.page);
  await receivesFrom(alice.page, bob.id);
  // Both people's tiles lie on the screen, side by side, their long names cut to fit.
  const tiles = panel.getByRole("list", { name: "Participants" }).getByRole("listitem");
  await expect(tiles).toHaveCount(2, { timeout: 20_000 });
  await fitApart({ [alice.user.username]: tiles.nth(0), [bob.user.username]: tiles.nth(1) });

  // Not expanded, open or minimized, the call stays above the message box: Alice writes during the call
  // (the window covered the box, and a tap there pressed "Share screen").
  const messageBox = alice.page.getByLabel("Message", { exact: true });
  const sendButton = alice.page.getByRole("button", { name: "Send", exact: true });
  for (const target of [messageBox, sendButton]) await expect.poll(() => uncovered(target)).toBe(true);
  await panel.getByRole("button", { name: "Minimize" }).click();
  for (const target of [messageBox, sendButton]) await expect.poll(() => uncovered(target)).toBe(true);
  await send(alice.page, "written during the call");
  await expect(log(bob.page).getByText("written during the call")).toBeVisible({ timeout: 20_000 });
  // The channels' drawer, opened during the call, lies above it: its conversations and "New message"
  // can be reached (the call window covered the direct messages, minimized too).
  await alice.page.getByRole("button", { name: "Show channels" }).click();
  for (const target of [alice.page.getByRole("button", { name: "# Pocket" }), alice.page.getByRole("button", { name: "New message" })])
    await expect.poll(() => uncovered(target)).toBe(true);
  await alice.page.keyboard.press("Escape");
  await panel.getByRole("button", { name: "Show call" }).click();

  // Expanded: the call is the conversation's box; its controls are apart, all on the screen.
  const expand = panel.getByRole("button", { name: "Expand call" });
  await expand.click();
  await expect(expand).toHaveAttribute("aria-pressed", "true");
  const conversation = (await alice.page.locator(".chat-main").boundingBox())!;
  await expect.poll(() => panel.boundingBox()).toEqual(conversation);
  const layouts = panel.getByRole("group", { name: "Layout" });
  const controls = {
    "Expand call": expand,
    Minimize: panel.getByRole("button", { name: "Minimize" }),
    Grid: layouts.getByRole("button", { name: "Grid" }),
    Speaker: layouts.getByRole("button", { name: "Speaker" }),
    Mute: panel.getByRole("button", { name: "Mute" }),
    "Camera off": panel.getByRole("button", { name: "Camera off" }),
    "Share screen": panel.getByRole("button", { name: "Share screen" }),
    "Leave call": panel.getByRole("button", { name: "Leave call" }),
  };
  await fitApart(controls);

  // Bob shares his screen: as wide as the call's window allows, the controls still apart on the screen.
  await bob.page.getByRole("region", { name: "Call", exact: true }).getByRole("button", { name: "Share screen" }).click();
  const screen = panel.getByLabel(`${bob.user.username}'s screen`);
  await expect(screen).toBeVisible({ timeout: 20_000 });
  const room = await panel.evaluate(
    (el) => el.clientWidth - parseFloat(getComputedStyle(el).paddingLeft) - parseFloat(getComputedStyle(el).paddingRight),
  );
  await expect.poll(async () => (await screen.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(room - 1);
  console.log(`expanded view at 390x844: the shared screen is ${(await screen.boundingBox())?.width} px wide of ${room} px`);
  await fitApart(controls);
  await alice.page.screenshot({ path: test.info().outputPath("phone-expanded-screen.png") });
  await expectAccessible(alice.page, "phone: the expanded call with a shared screen");
  for (const p of [alice, bob]) await p.context.close();
});
