import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, person } from "./helpers";

// A call on the keyboard (ADR 70's addendum): "Start call" keeps the focus as the call opens (it was
// disabled, and the focus fell to the page), the check opens on "Join call" and Esc cancels it, joining
// puts the focus on the call's controls, and cancelling or leaving gives it back to "Start call". On a
// phone's width, as on a desk.

test("a call on the keyboard: the check takes the focus, Esc cancels it, and leaving gives the focus back", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `keys-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Keys", password);
  await joinAndOpen(bob.page, channelId, password, "Keys");
  await alice.page.setViewportSize({ width: 390, height: 844 });
  const panel = alice.page.getByRole("region", { name: "Call", exact: true });
  const check = panel.getByRole("group", { name: "Check your camera and microphone" });
  const start = alice.page.getByRole("button", { name: "Start call" });

  // The check opens on "Join call"; Esc cancels it, and "Start call" has the focus again.
  await start.focus();
  await alice.page.keyboard.press("Enter");
  await expect(check.getByRole("button", { name: "Join call" })).toBeFocused();
  await alice.page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(start).toBeFocused();

  // Cancel does the same.
  await alice.page.keyboard.press("Enter");
  await expect(check.getByRole("button", { name: "Join call" })).toBeFocused();
  await check.getByRole("button", { name: "Cancel" }).focus();
  await alice.page.keyboard.press("Enter");
  await expect(panel).toBeHidden();
  await expect(start).toBeFocused();

  // Joined: the call's controls have the focus; the header's button says so and does nothing more.
  await alice.page.keyboard.press("Enter");
  await expect(check.getByRole("button", { name: "Join call" })).toBeFocused();
  await alice.page.keyboard.press("Enter");
  await expect(panel.getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  await expect(panel.getByRole("button", { name: "Mute" })).toBeFocused();
  const inCall = alice.page.getByRole("button", { name: "In call" });
  await expect(inCall).toHaveAttribute("aria-disabled", "true");
  await inCall.focus();
  await alice.page.keyboard.press("Enter");
  await expect(panel.getByRole("button", { name: "Leave call" })).toHaveCount(1);

  // Leaving gives the focus back to "Start call".
  await panel.getByRole("button", { name: "Leave call" }).focus();
  await alice.page.keyboard.press("Enter");
  await expect(panel).toBeHidden();
  await expect(start).toBeFocused();
  for (const p of [alice, bob]) await p.context.close();
});
