import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, log, message, person, send, waitLive } from "./helpers";

// What is deleted while a page's live stream is away (a reload, another conversation opened and this
// one again, a dropped connection) reaches it when the stream comes back: its catch-up reads what was
// added after the newest message shown, and the latest page again for what was deleted meanwhile.
// Alice's page asks for its stream again on a reload; the test holds that request at the network (the
// browser's own request, answered by the real web server once let go).

test("a reaction taken back and a message deleted while the reader's live stream was away are gone once it is back", async ({
  browser,
}) => {
  const alice = await person(browser, "gapa");
  const bob = await person(browser, "gapb");
  const password = `gap-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Gap Room", password);
  await joinAndOpen(bob.page, channelId, password, "Gap Room");
  await waitLive(alice.page);
  await send(alice.page, "the plan stays");
  await send(bob.page, "bob's passing remark");
  const plan = message(bob.page, "the plan stays");
  await plan.hover();
  await plan.getByRole("button", { name: "React" }).click();
  await bob.page.getByRole("menuitem", { name: "🎉" }).click();
  await expect(message(alice.page, "the plan stays").getByRole("button", { name: "🎉 1" })).toBeVisible();

  // Alice's page comes back with its live stream held.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let streams = 0;
  await alice.page.route("**/api/events**", async (route) => {
    streams += 1;
    await held;
    await route.continue().catch(() => undefined);
  });
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Gap Room", exact: true }).click();
  await expect(message(alice.page, "the plan stays").getByRole("button", { name: "🎉 1" })).toBeVisible({ timeout: 20_000 });
  await expect(log(alice.page).getByText("bob's passing remark")).toBeVisible();
  await expect.poll(() => streams).toBeGreaterThan(0);

  // Meanwhile Bob takes his reaction back and deletes his remark.
  await plan.getByRole("button", { name: "🎉 1: You reacted with 🎉" }).click();
  await expect(plan.getByRole("button", { name: /🎉/ })).toHaveCount(0);
  const remark = message(bob.page, "bob's passing remark");
  await remark.hover();
  await remark.getByRole("button", { name: "Delete" }).click();
  await bob.page.getByRole("dialog", { name: "Delete Message" }).getByRole("button", { name: "Delete" }).click();
  await expect(log(bob.page).getByText("bob's passing remark")).toHaveCount(0);
  // (still shown on Alice's page: nothing told it yet)
  await expect(message(alice.page, "the plan stays").getByRole("button", { name: "🎉 1" })).toBeVisible();
  await expect(log(alice.page).getByText("bob's passing remark")).toBeVisible();

  // Her stream comes back: both are gone, and a message sent after that arrives live.
  release();
  await waitLive(alice.page);
  await expect(message(alice.page, "the plan stays").getByRole("button", { name: /🎉/ })).toHaveCount(0);
  await expect(log(alice.page).getByText("bob's passing remark")).toHaveCount(0);
  await send(bob.page, "after the gap");
  await expect(log(alice.page).getByText("after the gap")).toBeVisible();
  await alice.context.close();
  await bob.context.close();
});
