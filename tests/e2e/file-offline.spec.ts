import { expect, NO_ANSWER, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send } from "./helpers";
import { sendFile } from "./send-file";

// A file sent while the device is offline cannot go up; it goes by itself once the connection is back,
// as a message written offline does, rather than waiting for "Retry upload".

test("a file sent while offline goes by itself once the device is back online", async ({ browser, consoleErrors }) => {
  consoleErrors.allow(NO_ANSWER);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `offline-file-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Offline Files", password);
  await joinAndOpen(bob.page, channelId, password, "Offline Files");
  await send(alice.page, "before the file");
  await expect(log(bob.page).getByText("before the file")).toBeVisible();

  await alice.context.setOffline(true);
  await expect(alice.page.getByRole("status").filter({ hasText: "Offline" })).toBeVisible();
  await sendFile(alice.page, { name: "agenda.txt", mimeType: "text/plain", buffer: Buffer.from("the agenda") }, "the agenda");
  const failed = alice.page.getByRole("alert").filter({ hasText: "(agenda.txt)" });
  await expect(failed).toContainText("It goes by itself once you are back online.");
  await expect(failed.getByRole("button", { name: "Retry upload" })).toBeVisible();

  await alice.context.setOffline(false);
  const item = log(bob.page).getByRole("article").filter({ hasText: "the agenda" });
  await expect(item.getByRole("button", { name: "Download agenda.txt" })).toBeVisible({ timeout: 30_000 });
  await expect(failed).toHaveCount(0);
  await expect(log(alice.page).getByRole("article").filter({ hasText: "the agenda" })).toHaveCount(1);
  await alice.context.close();
  await bob.context.close();
});
