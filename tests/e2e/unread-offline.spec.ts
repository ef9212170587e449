import { expect, NO_ANSWER, test } from "./fixtures";
import { channelRow, createChannel, joinAndOpen, log, person, send, waitLive } from "./helpers";

// A read position the page could not save (the stream delivered a message into the open conversation
// as the network dropped, and the page's request to save the reading failed) is saved once the
// network is back: it was never sent again, and the conversation stayed "1 unread" on every device,
// after a reload too.

test("a message read as the network dropped is saved as read once it is back: no unread count after leaving and reloading", async ({
  browser,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  consoleErrors.allow(NO_ANSWER);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `offline-read-${Date.now()}`;
  const team = await createChannel(alice.page, "Team", password);
  const other = await createChannel(alice.page, "Other", password);
  await joinAndOpen(bob.page, other, password, "Other");
  await joinAndOpen(bob.page, team, password, "Team");
  await alice.page.getByRole("button", { name: "# Team", exact: true }).click();
  await waitLive(alice.page);

  const reading = (url: string) => url.includes(`/api/channels/${team}/read`);
  let failed = 0;
  bob.page.on("requestfailed", (request) => void (reading(request.url()) && failed++));
  await bob.context.setOffline(true);
  await send(alice.page, "team while bob is offline");
  // (the stream stays open through the drop and delivers it; saving its reading fails)
  await expect(log(bob.page).getByText("team while bob is offline")).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => failed, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  const saved = bob.page.waitForResponse((response) => reading(response.url()) && response.status() === 200, { timeout: 30_000 });
  await bob.context.setOffline(false);
  await saved;

  await bob.page.getByRole("button", { name: "# Other", exact: true }).click();
  await bob.page.reload();
  await expect(bob.page.getByRole("button", { name: "# Team", exact: true })).toBeVisible({ timeout: 30_000 });
  await waitLive(bob.page);
  await expect(channelRow(bob.page, "Team").getByRole("img", { name: /unread/ })).toHaveCount(0);
});
