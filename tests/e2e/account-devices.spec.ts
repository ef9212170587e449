import { expect, signIn, test } from "./fixtures";
import { person, waitLive } from "./helpers";
import { axe } from "./axe";

// Account > Devices: the account's signed-in sessions, this one marked; "Sign out" on another signs
// it out at once (its live stream closes, its next request is refused, its page says so).

const ENDED = "Your session has ended. Please sign in again.";

test("devices: two sessions listed with this one marked; signing the other out closes its stream and signs its page out", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const otherPage = await other.newPage();
  await signIn(otherPage, alice.user);
  await expect(otherPage.getByText(`@${alice.user.username}`)).toBeVisible({ timeout: 20_000 });
  await waitLive(otherPage);
  const refused: string[] = [];
  otherPage.on("response", (response) => {
    if (response.status() === 401) refused.push(new URL(response.url()).pathname);
  });

  await alice.page.getByRole("button", { name: "Menu" }).click();
  await alice.page.getByRole("menuitem", { name: "Account" }).click();
  const dialog = alice.page.getByRole("dialog", { name: "Account" });
  const devices = dialog.getByRole("region", { name: "Devices" });
  const list = devices.getByRole("list", { name: "Devices" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  const mine = list.getByRole("listitem").filter({ hasText: "This device" });
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText("Chrome on Linux");
  await expect(mine).toContainText(/First seen .+, last seen .+/);
  await expect(mine.getByRole("button")).toHaveCount(0);
  const theirs = list.getByRole("listitem").filter({ hasNotText: "This device" });
  await expect(theirs).toContainText("Chrome on Linux");
  // The dialog with its Password and Devices sections passes axe (serious and critical, names matching their text).
  const audit = await axe(alice.page)
    .options({ rules: { "label-content-name-mismatch": { enabled: true } } })
    .analyze();
  expect(audit.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  await theirs.getByRole("button", { name: /^Sign out Chrome on Linux, last seen / }).click();
  await expect(devices.getByRole("status")).toHaveText("Chrome on Linux was signed out.");
  await expect(list.getByRole("listitem")).toHaveCount(1);

  // The other page: its live stream ends with "signed-out", the page asks, is refused, and lands on the
  // sign-in screen without a click.
  await expect(otherPage.getByRole("alert")).toHaveText(ENDED, { timeout: 5_000 });
  await expect(otherPage.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  expect(refused).toContain("/api/auth/sessions");
  expect(await otherPage.evaluate(() => localStorage.getItem("chatcrypt_keys"))).toBeNull();
  await otherPage.reload();
  await expect(otherPage.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();

  // This device is untouched; Esc closes the dialog and gives focus back.
  await dialog.press("Escape");
  await expect(dialog).toBeHidden();
  await waitLive(alice.page);
  await expect(alice.page.getByText(`@${alice.user.username}`)).toBeVisible();
  await other.close();
  await alice.context.close();
});
