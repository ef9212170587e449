import { expect, test } from "./fixtures";
import { joinCall, receivesFrom, startCall } from "./calls-helpers";
import { createChannel, joinAndOpen, log, person } from "./helpers";

// A classic channel's call of three (ADR 30, 32): each page receives sound and pictures from the two
// others (bytes and decoded frames rising), a member not in the call is shown the bar, and the call
// leaves one "Call ended · …" line for everyone, recorded by the server when the room empties (ADR 70).

test("a channel call of three: everyone receives the two others, the bar shows for a member not in it, and the call leaves one line", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [alice, bob, carol] = await Promise.all(["alice", "bob", "carol"].map((name) => person(browser, name)));
  const password = `three-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Trio", password);
  for (const p of [bob, carol]) await joinAndOpen(p.page, channelId, password, "Trio");
  const panel = (p: typeof alice) => p.page.getByRole("region", { name: "Call", exact: true });
  const bar = (p: typeof alice) => p.page.getByRole("region", { name: "Call in progress" });

  await startCall(alice.page);
  await expect(panel(alice).getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  await joinCall(bob.page);
  await receivesFrom(alice.page, bob.id);

  // Carol, a member not in the call, is shown it and who is in it.
  await expect(bar(carol)).toContainText("Call in progress — 2 people in it", { timeout: 15_000 });
  await joinCall(carol.page);

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

  // They leave one after the other, and those still in it are told who left (the last one also that
  // nobody else is left); the call's line appears once, for all three.
  const told = (p: typeof alice, text: string) =>
    expect(panel(p).getByRole("status").filter({ hasText: text })).toBeVisible({ timeout: 20_000 });
  const leave = async (p: typeof alice) => {
    await panel(p).getByRole("button", { name: "Leave call" }).click();
    await expect(panel(p)).toBeHidden();
  };
  await leave(alice);
  for (const p of [bob, carol]) await told(p, `${alice.user.username} left the call.`);
  await leave(bob);
  await told(carol, `${bob.user.username} left the call. You are the only one in it.`);
  await leave(carol);
  for (const p of [alice, bob, carol]) await expect(log(p.page).getByText(/^Call ended · /)).toHaveCount(1, { timeout: 30_000 });
  for (const p of [alice, bob, carol]) await p.context.close();
});
