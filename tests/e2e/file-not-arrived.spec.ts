import { expect, NO_ANSWER, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send } from "./helpers";
import { sendFile } from "./send-file";

// A file's message is posted before its file. When the file never comes (its sender's tab closed, or the
// upload failed and was neither retried nor discarded), the others are told so once it cannot be on its
// way any more, instead of "Receiving attachment..." for ever. Bob's page runs on Playwright's clock to
// pass the six minutes; nothing in the product is shortened for the test.

test("a file whose upload never finished: 'did not arrive' for the others after six minutes, the file once retried", async ({
  browser,
  consoleErrors,
}) => {
  consoleErrors.allow(NO_ANSWER);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `never-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Never Came", password);
  await bob.page.clock.install();
  await joinAndOpen(bob.page, channelId, password, "Never Came");
  await send(alice.page, "before the file");
  await expect(log(bob.page).getByText("before the file")).toBeVisible();

  await alice.page.route(`**/api/channels/${channelId}/attachments`, (route) => route.abort("connectionreset"));
  await sendFile(alice.page, { name: "minutes.txt", mimeType: "text/plain", buffer: Buffer.from("the meeting's minutes") }, "the minutes");
  const failed = alice.page.getByRole("alert").filter({ hasText: "Failed to upload file (minutes.txt)" });
  await expect(failed).toBeVisible();
  const item = log(bob.page).getByRole("article").filter({ hasText: "the minutes" });
  await expect(item.getByText("Receiving attachment...")).toBeVisible();

  // Five minutes on, the upload may still be going: still on its way.
  await bob.page.clock.fastForward("05:00");
  await expect(item.getByText("Receiving attachment...")).toBeVisible();
  // Past six, it cannot be: said so, and after a reload too.
  await bob.page.clock.fastForward("01:30");
  const notArrived = "The file did not arrive: its sender did not finish sending it.";
  await expect(item.getByText(notArrived)).toBeVisible();
  await expect(item.getByText("Receiving attachment...")).toHaveCount(0);
  await bob.page.reload();
  await expect(log(bob.page).getByRole("article").filter({ hasText: "the minutes" }).getByText(notArrived)).toBeVisible({
    timeout: 20_000,
  });

  // Alice retries after all: the file arrives and replaces the notice.
  await alice.page.unroute(`**/api/channels/${channelId}/attachments`);
  await failed.getByRole("button", { name: "Retry upload" }).click();
  await expect(failed).toBeHidden();
  const after = log(bob.page).getByRole("article").filter({ hasText: "the minutes" });
  await expect(after.getByRole("button", { name: "Download minutes.txt" })).toBeVisible({ timeout: 20_000 });
  await expect(after.getByText(notArrived)).toHaveCount(0);
});
