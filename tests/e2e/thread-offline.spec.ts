import { expect, NO_ANSWER, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send } from "./helpers";
import { openThread } from "./thread-helpers";

// A thread's reply written while the device is offline stays in the box and goes by itself once the
// connection is back, as a message written offline does (the outbox); it is sent once.

test("a thread reply written offline goes by itself once the device is back online", async ({ browser, consoleErrors }) => {
  consoleErrors.allow(NO_ANSWER);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `offline-thread-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Offline Threads", password);
  await joinAndOpen(bob.page, channelId, password, "Offline Threads");
  await send(bob.page, "who takes the minutes?");
  await expect(log(alice.page).getByText("who takes the minutes?")).toBeVisible();
  const panel = await openThread(alice.page, "who takes the minutes?");
  // (the thread open, as the person sees it, before the connection goes)
  await expect(panel.getByRole("article", { name: `Thread started by ${bob.user.username}` })).toContainText("who takes the minutes?");

  await alice.context.setOffline(true);
  await expect(alice.page.getByRole("status").filter({ hasText: "Offline" })).toBeVisible();
  await panel.getByLabel("Reply in thread").fill("I will, from the train");
  await panel.getByLabel("Reply in thread").press("Enter");
  await expect(panel.getByRole("status")).toHaveText("You are offline. Your reply goes by itself once you are back online.");
  await expect(panel.getByLabel("Reply in thread")).toHaveValue("I will, from the train");
  await expect(alice.page.getByRole("alert").filter({ hasText: "The reply could not be sent" })).toHaveCount(0);

  await alice.context.setOffline(false);
  await expect(panel.getByRole("list", { name: "Replies" }).getByText("I will, from the train")).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByLabel("Reply in thread")).toHaveValue("");
  await expect(panel.getByRole("status").filter({ hasText: "You are offline" })).toHaveCount(0);
  const bobsPanel = await openThread(bob.page, "who takes the minutes?");
  await expect(bobsPanel.getByRole("list", { name: "Replies" }).getByText("I will, from the train")).toHaveCount(1, { timeout: 20_000 });

  // typed on while offline: it waits for its author to send it
  await alice.context.setOffline(true);
  await panel.getByLabel("Reply in thread").fill("and the notes");
  await panel.getByLabel("Reply in thread").press("Enter");
  await expect(panel.getByRole("status")).toHaveText("You are offline. Your reply goes by itself once you are back online.");
  await panel.getByLabel("Reply in thread").fill("and the notes, by Friday");
  await expect(panel.getByRole("status").filter({ hasText: "You are offline" })).toHaveCount(0);
  await alice.context.setOffline(false);
  await expect(alice.page.getByRole("status").filter({ hasText: "Offline" })).toHaveCount(0);
  await panel.getByRole("button", { name: "Send reply" }).click();
  await expect(bobsPanel.getByRole("list", { name: "Replies" }).getByText("and the notes, by Friday")).toBeVisible({ timeout: 20_000 });
  await expect(bobsPanel.getByRole("list", { name: "Replies" }).getByText("and the notes", { exact: true })).toHaveCount(0);
  await alice.context.close();
  await bob.context.close();
});
