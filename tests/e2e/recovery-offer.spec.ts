import { expectAccessible } from "./axe";
import { expect, newUser, openAuth, test } from "./fixtures";

// The recovery key offered at sign-up: its download is named per account, and "Not now" says what is
// lost before anything closes (going back keeps the same words; continuing stores nothing). A reload
// before either offers it again, with new words; once declined, a reload offers nothing.
test("the offered recovery key downloads under the account's name, and Not now says what is lost first", async ({ page }) => {
  test.setTimeout(120_000);
  const alice = newUser("offer");
  await openAuth(page);
  await page.getByRole("button", { name: "Don't have an account? Sign up" }).click();
  await page.getByLabel("Username").fill(alice.username);
  await page.getByLabel("Email").fill(alice.email);
  await page.getByLabel("Password").fill(alice.password);
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();

  const offer = page.getByRole("dialog", { name: "Save your recovery key" });
  const items = offer.getByRole("list", { name: "Recovery key" }).getByRole("listitem");
  await expect(items).toHaveCount(24, { timeout: 20_000 });
  const first = await items.allInnerTexts();

  // a reload while it is offered: offered again, with new words (the first ones were never kept)
  await page.reload();
  await expect(items).toHaveCount(24, { timeout: 20_000 });
  const words = await items.allInnerTexts();
  expect(words).not.toEqual(first);
  const [download] = await Promise.all([page.waitForEvent("download"), offer.getByRole("button", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toBe(`chatcrypt-recovery-key-${alice.username}.txt`);
  await expect(offer.getByText(`Recovery key downloaded as chatcrypt-recovery-key-${alice.username}.txt.`)).toBeVisible();

  // "Not now" asks first, in words; the dialog stays.
  await offer.getByRole("button", { name: "Not now" }).click();
  const skip = page.getByRole("dialog", { name: "Continue without a recovery key?" });
  await expect(
    skip.getByText("Without a recovery key, a forgotten password means losing your encrypted messages", { exact: false }),
  ).toBeVisible();
  await expect(skip.getByRole("button", { name: "Back to the recovery key" })).toBeFocused();
  await expectAccessible(page, "continue without a recovery key");

  // Back shows the same words.
  await skip.getByRole("button", { name: "Back to the recovery key" }).click();
  await expect(items).toHaveCount(24);
  expect(await items.allInnerTexts()).toEqual(words);

  // Continuing closes, and no recovery key was stored.
  await offer.getByRole("button", { name: "Not now" }).click();
  await skip.getByRole("button", { name: "Continue without it" }).click();
  await expect(skip).toBeHidden();
  await expect(offer).toBeHidden();
  // declined: this tab keeps nothing of the offer, and a reload does not offer it again
  expect(await page.evaluate(() => sessionStorage.getItem("chatcrypt_recovery_offer"))).toBeNull();
  await page.reload();
  await expect(page.getByRole("button", { name: "Menu", exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(offer).toBeHidden();
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  await page.getByRole("menuitem", { name: "Account" }).click();
  await expect(page.getByRole("dialog", { name: "Account" }).getByRole("button", { name: "Create a recovery key" })).toBeVisible();
});
