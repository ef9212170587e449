import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { joinCall, joinFromCheck, startCall } from "./calls-helpers";
import { createChannel, joinAndOpen, keyPackagesSent, openConversation, person, startConversation, waitLive } from "./helpers";

// A page is in one call at a time (ADR 70). Someone in a channel's call who started another call
// used to leave the first without a word, and someone in a call was never rung for a direct call
// (the ring was kept, not shown): the caller waited alone, and the callee read "Missed call".

const panel = (page: Page) => page.getByRole("region", { name: "Call", exact: true });
const people = (page: Page) => panel(page).getByRole("list", { name: "Participants" }).getByRole("listitem");

test("in a channel's call: starting a direct call asks first, and the other person, in the same call, is rung and told what joining leaves", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `switch-${Date.now()}`;
  const teamId = await createChannel(alice.page, "Team", password);
  await joinAndOpen(bob.page, teamId, password, "Team");
  await keyPackagesSent(bob);
  await startConversation(alice.page, [bob.user.username]);
  await waitLive(alice.page);

  // Both in the Team call.
  await alice.page.getByRole("button", { name: "# Team", exact: true }).click();
  await startCall(alice.page);
  await joinCall(bob.page);
  await expect(people(alice.page)).toHaveCount(2, { timeout: 30_000 });

  // Alice, in the direct conversation, presses Start call: asked first; Cancel keeps the Team call.
  await openConversation(alice.page, bob.user.username);
  const start = alice.page.getByRole("button", { name: "Start call" });
  await start.click();
  const question = alice.page.getByRole("dialog", { name: "Leave the call in #Team?" });
  await expect(question).toContainText(`You are in a call in #Team. Joining the call in @${bob.user.username} leaves it.`);
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toBeHidden();
  await expect(start).toBeFocused();
  await expect(people(bob.page)).toHaveCount(2);

  // Confirmed: her call is the direct one, and Bob, still in the Team call, is rung.
  await start.click();
  await question.getByRole("button", { name: "Leave and join" }).click();
  await joinFromCheck(alice.page);
  const ring = bob.page.getByRole("dialog", { name: `${alice.user.username} is calling` });
  await expect(ring).toContainText("Joining leaves your call in #Team.", { timeout: 30_000 });
  await ring.getByRole("button", { name: "Join" }).click();
  await expect(people(alice.page)).toHaveCount(2, { timeout: 30_000 });
  await expect(panel(bob.page).getByRole("heading")).toContainText(alice.user.username);
  await expect(people(bob.page)).toHaveCount(2);
});
