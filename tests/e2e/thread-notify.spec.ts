import { expect, newUser, signUp, test } from "./fixtures";
import { createChannel, joinAndOpen, openNotificationSettings, person, recordNotifications, send, waitLive } from "./helpers";
import { openThread, reply } from "./thread-helpers";

// A reply in a thread someone takes part in notifies them as a mention does (ADR 0023), also on a page
// that has read nothing of that thread: after a reload with another conversation open, on another
// device. The live reply names who takes part (pocketbase/thread_people.go); with every page closed the
// server's push and mail go to them too (tests/integration/email-away.test.ts).

test("a reply in a thread Bob took part in notifies him after a reload, with another conversation open", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  // Bob's browser may show notifications, and reports its window as not in front (only then are they shown)
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, permissions: ["notifications"] });
  await recordNotifications(context);
  const bob = { user: newUser("bob"), page: await context.newPage() };
  await signUp(bob.page, bob.user);
  const password = `plans-${Date.now()}`;
  const lobbyId = await createChannel(alice.page, "Lobby", `${password}-lobby`);
  const channelId = await createChannel(alice.page, "Plans", password);
  await joinAndOpen(bob.page, lobbyId, `${password}-lobby`, "Lobby");
  await joinAndOpen(bob.page, channelId, password, "Plans");
  await waitLive(alice.page);
  await send(alice.page, "the plan for friday");
  await reply(await openThread(bob.page, "the plan for friday"), "bob is in");
  const settings = await openNotificationSettings(bob.page);
  await settings.getByLabel("Desktop notifications").check();
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(settings).toBeHidden();

  // The page reloads in another conversation: it has read nothing of the thread since.
  await bob.page.goto(`/c/${lobbyId}`);
  await waitLive(bob.page);
  await reply(await openThread(alice.page, "the plan for friday"), "alice answers in the thread");
  const shown = () =>
    bob.page.evaluate(() =>
      (window as unknown as { __shown: { title: string; body: string }[] }).__shown.map((n) => `${n.title}: ${n.body}`),
    );
  await expect.poll(shown, { timeout: 20_000 }).toContainEqual(expect.stringContaining("alice answers in the thread"));
  // a reply in a thread he has no part in does not
  await send(alice.page, "another topic");
  await reply(await openThread(alice.page, "another topic"), "nothing for bob here");
  await send(alice.page, `@${bob.user.username} a mention after it`);
  await expect.poll(shown, { timeout: 20_000 }).toContainEqual(expect.stringContaining("a mention after it"));
  expect((await shown()).join("\n")).not.toContain("nothing for bob here");
});
