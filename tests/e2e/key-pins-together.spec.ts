import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send } from "./helpers";

// A conversation's senders seen for the first time are pinned together: one save (one POST /api/pins
// carrying their pins and the next head), not one request per sender, one after the other.
test("first sights of several senders are pinned in one save", async ({ browser }) => {
  const [alice, bob, carol, erin] = await Promise.all(["alice", "bob", "carol", "erin"].map((name) => person(browser, name)));
  const password = `together-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Pinned Together", password);
  await send(alice.page, "from alice");
  for (const [who, text] of [
    [bob, "from bob"],
    [carol, "from carol"],
  ] as const) {
    await joinAndOpen(who.page, channelId, password, "Pinned Together");
    await send(who.page, text);
  }

  const saves: { pins?: { subjectId: string }[]; pin?: unknown }[] = [];
  erin.page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/pins") saves.push(request.postDataJSON());
  });
  await joinAndOpen(erin.page, channelId, password, "Pinned Together");
  for (const text of ["from alice", "from bob", "from carol"]) await expect(log(erin.page).getByText(text)).toBeVisible();
  await expect.poll(() => saves.flatMap((s) => s.pins ?? []).length).toBe(3);
  const pinned = saves.flatMap((s) => (s.pins ?? []).map((p) => p.subjectId)).sort();
  expect(pinned).toEqual([alice.id, bob.id, carol.id].sort());
  expect(saves.every((s) => s.pin === undefined)).toBe(true);
  expect(saves.length).toBeLessThan(3);
});
