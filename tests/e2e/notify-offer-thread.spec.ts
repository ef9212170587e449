import { expect, test } from "./fixtures";
import { copyInviteLink, createChannel, joinAndOpen, person, send, waitLive } from "./helpers";
import { asked, colleague, offer, shown, turnOn } from "./notify-offer-helpers";
import { openThread, reply } from "./thread-helpers";

// A mention that arrives only as a reply inside a thread (not in the channel) is a message for the
// person, like a direct message: before notifications were ever turned on it offers "Turn on
// notifications" (ADR 0067), also while another conversation is open; once allowed, it notifies.

test("a mention only in a thread reply, in a conversation that is not open, offers notifications and then notifies", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "Team", `team-${Date.now()}`);
  const link = await copyInviteLink(alice.page);
  const bob = await colleague(browser, "bob", link);
  // Bob reads another conversation; Alice writes in Team, then answers in the thread only, naming him.
  const password = `random-${Date.now()}`;
  const random = await createChannel(alice.page, "Random", password);
  await joinAndOpen(bob.page, random, password, "Random");
  await alice.page.getByRole("button", { name: "# Team", exact: true }).click();
  await waitLive(alice.page);
  await send(alice.page, "plans for Friday");
  const panel = await openThread(alice.page, "plans for Friday");
  await reply(panel, `@${bob.user.username} can you take the slides?`);
  await expect(turnOn(bob.page)).toBeVisible({ timeout: 20_000 });
  expect(await asked(bob.page)).toBe(0);

  // Allowed on the click: the next mention in the thread notifies him, still from another conversation.
  await bob.context.grantPermissions(["notifications"]);
  await turnOn(bob.page).click();
  await expect(offer(bob.page)).toHaveCount(0);
  expect(await asked(bob.page)).toBe(1);
  await reply(panel, `@${bob.user.username} and the room booking`);
  await expect
    .poll(() => shown(bob.page), { timeout: 20_000 })
    .toContainEqual({ title: `${alice.user.username} in #Team`, body: `@${bob.user.username} and the room booking` });

  await Promise.all([alice.context.close(), bob.context.close()]);
});
