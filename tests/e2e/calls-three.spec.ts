import { expect, test } from "./fixtures";
import { receivesFrom } from "./calls-helpers";
import { createChannel, joinAndOpen, log, person } from "./helpers";

// A classic channel's call of three (ADR 30, 32): each page receives sound and pictures from the two
// others (bytes and decoded frames rising), a member not in the call is shown the bar, and the call
// leaves one "Call, N min, 3 people" entry for everyone.

test("a channel call of three: everyone receives the two others, the bar shows for a member not in it, and the entry counts 3 people", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [alice, bob, carol] = await Promise.all(["alice", "bob", "carol"].map((name) => person(browser, name)));
  const password = `three-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Trio", password);
  for (const p of [bob, carol]) await joinAndOpen(p.page, channelId, password, "Trio");
  const panel = (p: typeof alice) => p.page.getByRole("region", { name: "Call", exact: true });
  const bar = (p: typeof alice) => p.page.getByRole("region", { name: "Call in progress" });

  await alice.page.getByRole("button", { name: "Start call" }).click();
  await expect(panel(alice).getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  await bar(bob).getByRole("button", { name: "Join" }).click();
  await receivesFrom(alice.page, bob.id);

  // Carol, a member not in the call, is shown it and who is in it.
  await expect(bar(carol)).toContainText("Call in progress — 2 people in it", { timeout: 15_000 });
  await bar(carol).getByRole("button", { name: "Join" }).click();

  for (const p of [alice, bob, carol]) {
    await expect(panel(p).getByRole("list", { name: "Participants" }).getByRole("listitem")).toHaveCount(3, { timeout: 20_000 });
    await expect(panel(p).getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  }
  for (const [to, from] of [
    [alice, bob],
    [alice, carol],
    [bob, alice],
    [bob, carol],
    [carol, alice],
    [carol, bob],
  ] as const)
    await receivesFrom(to.page, from.id);

  // They leave one after the other; the last one out leaves the entry, once, for all three.
  for (const p of [alice, bob, carol]) {
    await panel(p).getByRole("button", { name: "Leave call" }).click();
    await expect(panel(p)).toBeHidden();
  }
  for (const p of [alice, bob, carol]) await expect(log(p.page).getByText(/^Call, \d+ min, 3 people$/)).toHaveCount(1, { timeout: 15_000 });
  for (const p of [alice, bob, carol]) await p.context.close();
});
