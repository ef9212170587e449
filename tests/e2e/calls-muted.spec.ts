import { expect, test } from "./fixtures";
import { startCall } from "./calls-helpers";
import { colleague, copyInviteLink, createChannel, openConversation, person, send, message } from "./helpers";

// A muted conversation does not ring (ADR 0067): the call shows in its "Call in progress" bar, and
// nothing pops up. Unmuted, the same call rings again.

test("a muted direct conversation does not ring; unmuted, it does", async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "Ring Team", `ring-${Date.now()}`);
  const link = await copyInviteLink(alice.page);
  const bob = await colleague(browser, "bob", link, "Ring Team");
  await alice.page.getByRole("button", { name: "New message" }).click();
  const picker = alice.page.getByRole("dialog", { name: "New message" });
  await picker.getByLabel("Find by username").fill(bob.user.username);
  await picker.getByLabel("Find by username").press("Enter");
  await expect(picker.getByRole("checkbox", { name: bob.user.username })).toBeChecked();
  await picker.getByRole("button", { name: "Start conversation" }).click();
  await expect(picker).toBeHidden({ timeout: 30_000 });
  await send(alice.page, "a call in a minute");
  await openConversation(bob.page, alice.user.username);
  await expect(message(bob.page, "a call in a minute")).toBeVisible();

  // Bob mutes the conversation for an hour.
  await bob.page.getByRole("button", { name: "Notifications", exact: true }).click();
  const choices = bob.page.getByRole("group", { name: "Notification choices" });
  const saved = bob.page.waitForResponse((r) => r.url().endsWith("/api/notify-rules") && r.request().method() === "POST");
  await choices.getByRole("button", { name: "Mute for 1 hour" }).click();
  expect((await saved).status()).toBe(200);
  await bob.page.keyboard.press("Escape");

  const alicePanel = alice.page.getByRole("region", { name: "Call", exact: true });
  const ring = bob.page.getByRole("dialog", { name: `${alice.user.username} is calling` });
  const bobsBar = bob.page.getByRole("region", { name: "Call in progress" });
  const call = async () => {
    await startCall(alice.page);
    await expect(alicePanel.getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  };
  const hangUp = async () => {
    await alicePanel.getByRole("button", { name: "Leave call" }).click();
    await expect(alicePanel).toBeHidden();
  };

  // Muted: the call reaches Bob's page (its bar shows it) and nothing rings.
  await call();
  await expect(bobsBar).toBeVisible({ timeout: 15_000 });
  await expect(ring).toHaveCount(0);
  await hangUp();
  await expect(bobsBar).toBeHidden({ timeout: 15_000 });

  // Unmuted: the next call rings.
  await bob.page.getByRole("button", { name: "Notifications", exact: true }).click();
  const unmuted = bob.page.waitForResponse((r) => r.url().endsWith("/api/notify-rules") && r.request().method() === "POST");
  await choices.getByRole("button", { name: "Unmute" }).click();
  expect((await unmuted).status()).toBe(200);
  await bob.page.keyboard.press("Escape");
  await call();
  await expect(ring).toBeVisible({ timeout: 15_000 });
  await ring.getByRole("button", { name: "Decline" }).click();
  await hangUp();
  await Promise.all([alice.context.close(), bob.context.close()]);
});
