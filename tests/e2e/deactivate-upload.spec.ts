import { administrator, changeStatus, openConsole } from "./admin-helpers";
import { expect, NO_ANSWER, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person } from "./helpers";

// A leaver deactivated while their file is on its way (ADR 56): the upload is refused with their
// session, and their colleagues are told at once that the file will not arrive, live and after a
// reload, instead of "Receiving attachment..." for the six minutes a file may take.

const WILL_NOT_ARRIVE = "The file did not arrive: its sender was deactivated before it was sent.";

test("a file on its way when its sender is deactivated: colleagues are told at once it will not arrive", async ({
  browser,
  consoleErrors,
}) => {
  consoleErrors.allow(NO_ANSWER);
  const admin = await administrator(browser, "admin", "upadmin");
  const alice = await person(browser, "alice");
  const lea = await person(browser, "lea");
  const name = `Handover ${Date.now() % 100000}`;
  const password = `handover-${Date.now()}`;
  const channelId = await createChannel(alice.page, name, password);
  await joinAndOpen(lea.page, channelId, password, name);
  await openConsole(admin.page);

  // Lea sends a file whose upload the test holds
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await lea.page.route(`**/api/channels/${channelId}/attachments`, async (route) => {
    await held;
    await route.continue().catch(() => undefined);
  });
  await lea.page
    .locator('input[type="file"]')
    .first()
    .setInputFiles({ name: "handover-notes.txt", mimeType: "text/plain", buffer: Buffer.from("notes ".repeat(20_000)) });
  const dialog = lea.page.getByRole("dialog", { name: "Send a file" });
  await dialog.getByLabel("Caption (optional)").fill("my handover notes");
  await dialog.getByRole("button", { name: "Send file" }).click();
  const item = log(alice.page).getByRole("article").filter({ hasText: "my handover notes" });
  await expect(item.getByText("Receiving attachment...")).toBeVisible({ timeout: 20_000 });

  await changeStatus(admin.page, lea.user.username, "deactivate");
  await expect(item.getByText(WILL_NOT_ARRIVE)).toBeVisible({ timeout: 20_000 });
  release();
  await alice.page.reload();
  await expect(log(alice.page).getByRole("article").filter({ hasText: "my handover notes" }).getByText(WILL_NOT_ARRIVE)).toBeVisible({
    timeout: 20_000,
  });
  for (const p of [admin, alice, lea]) await p.context.close();
});
