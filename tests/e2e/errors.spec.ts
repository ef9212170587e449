import type { Route } from "@playwright/test";
import { expect, newUser, signUp, test } from "./fixtures";
import { createChannel, openNotificationSettings, person, waitLive } from "./helpers";

test("spec error texts: missing device keys, missing channel password, blocked notifications; Esc closes dialogs", async ({
  browser,
  consoleErrors,
}) => {
  const alice = await person(browser, "alice");
  const channelId = await createChannel(alice.page, "Errors", "pw-errors");

  // A share link the server refuses can be tried again; one this page fails to seal is written to the
  // console, and the alert says to look there.
  const shareFails = async (text: string) => {
    await alice.page.getByRole("button", { name: "Share Link" }).click();
    await alice.page
      .getByRole("dialog", { name: /^Invite to #/ })
      .getByRole("button", { name: "Copy invite link" })
      .click();
    await expect(alice.page.getByRole("alert").filter({ hasText: text })).toBeVisible();
  };
  const invites = `**/api/channels/${channelId}/invites`;
  await alice.page.route(invites, (route) => route.fulfill({ status: 403, json: { message: "Only members can invite." } }));
  await shareFails("Failed to create share link. Please try again.");
  await alice.page.unroute(invites);
  await alice.page.evaluate(() => {
    const subtle = crypto.subtle as SubtleCrypto & { realEncrypt?: SubtleCrypto["encrypt"] };
    subtle.realEncrypt = subtle.encrypt;
    subtle.encrypt = () => Promise.reject(new DOMException("The operation failed for an operation-specific reason", "OperationError"));
  });
  consoleErrors.allow(/^Creating the share link failed: CryptoError/);
  const logged: string[] = [];
  alice.page.on("console", (message) => void (message.type() === "error" && logged.push(message.text())));
  await shareFails("Failed to create share link. Please check the console for details.");
  await expect.poll(() => logged.join("\n")).toContain("Creating the share link failed");
  await alice.page.evaluate(() => {
    const subtle = crypto.subtle as SubtleCrypto & { realEncrypt?: SubtleCrypto["encrypt"] };
    subtle.encrypt = subtle.realEncrypt!;
  });

  // Esc closes a dialog without doing anything.
  await alice.page.getByRole("button", { name: "Join", exact: true }).click();
  await expect(alice.page.getByRole("dialog", { name: "Join Channel" })).toBeVisible();
  await alice.page.keyboard.press("Escape");
  await expect(alice.page.getByRole("dialog")).toHaveCount(0);

  // Without the channel password on this device, Share Link says what to do. The page's storage is
  // only the keyring's cache, and the keyring writes it back whenever the channel list reloads (a live
  // event just after a create does): here the keyring answers without this channel, as for a device
  // whose keyring never got it, so the removal holds. The page is loaded again first: a keyring read
  // still on its way when the answer is changed would write the password back after its removal.
  const emptyKeyring = (route: Route) => (route.request().method() === "GET" ? route.fulfill({ json: { entries: [] } }) : route.continue());
  await alice.page.route("**/api/keyring", emptyKeyring);
  await alice.page.reload();
  await waitLive(alice.page);
  await alice.page.evaluate((id) => localStorage.removeItem(`channel_password_${id}`), channelId);
  await alice.page.getByRole("button", { name: "Share Link" }).click();
  await expect(alice.page.getByRole("alert")).toContainText(
    "Cannot create share link: Channel password not found. Please re-join the channel.",
  );
  await alice.page.unroute("**/api/keyring", emptyKeyring);

  // Without the key bundle on this device, creating a channel is refused with the spec's text.
  await alice.page.evaluate(() => localStorage.removeItem("chatcrypt_keys"));
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "Create", exact: true }).click();
  const dialog = alice.page.getByRole("dialog", { name: "Create Channel" });
  await dialog.getByLabel("Channel Name").fill("Another");
  await dialog.getByLabel("Password").fill("pw");
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Encryption keys not found. Please sign in again on this device.");
  await alice.context.close();

  // A browser that blocks notifications shows the inline explanation.
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, permissions: ["clipboard-read", "clipboard-write"] });
  await context.addInitScript(() => {
    Object.defineProperty(Notification, "permission", { get: () => "denied" });
  });
  const page = await context.newPage();
  await signUp(page, newUser("dora"));
  await createChannel(page, "Quiet", "pw-quiet");
  await openNotificationSettings(page);
  await expect(
    page
      .getByRole("dialog", { name: "Notification Settings" })
      .getByText("Browser notifications are blocked. Please enable them in your browser settings."),
  ).toBeVisible();
  await context.close();
});
