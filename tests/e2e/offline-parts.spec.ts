import { expect, NO_ANSWER, test } from "./fixtures";
import { createChannel, person, send, waitLive } from "./helpers";

// Parts of the app load when first opened (app/ui/lazyPart.tsx). One asked for while the network is
// away used to take the whole page to "Something went wrong" (and kept failing after the network came
// back, until a reload).
const PART_FAILED = "This part of ChatCrypt could not be loaded. Check your connection and try again.";

test("a part asked for offline says so, loses nothing, tries again when asked and opens once the network is back", async ({
  browser,
  consoleErrors,
}) => {
  consoleErrors.allow(NO_ANSWER);
  const { page, context } = await person(browser, "offparts");
  const chunks: string[] = [];
  context.on("request", (request) => chunks.push(new URL(request.url()).pathname));
  const askedForAccount = () => chunks.filter((path) => path.startsWith("/assets/AccountDialog-")).length;
  const name = `offline-${Date.now().toString(36)}`;
  await createChannel(page, name, "offline parts pw");
  await waitLive(page);
  await send(page, "a message to save");
  const box = page.getByLabel("Message", { exact: true });
  await box.fill("a draft kept while offline");
  const failed = page.getByRole("alert").filter({ hasText: PART_FAILED });

  await context.setOffline(true);
  // Save Chat's code is not there yet: the toast says so (it said nothing before), and it goes with "Dismiss".
  await page.getByRole("button", { name: "Save Chat" }).click();
  await expect(failed).toBeVisible();
  await failed.getByRole("button", { name: "Dismiss" }).click();
  await expect(failed).toHaveCount(0);

  // A dialog: the toast says so; the conversation and its draft stay.
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("menuitem", { name: "Account" }).click();
  await expect(failed).toBeVisible();
  const firstAttempts = askedForAccount();
  expect(firstAttempts).toBeGreaterThan(0);
  await expect(page.getByRole("heading", { name: `# ${name}` })).toBeVisible();
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
  await expect(box).toHaveValue("a draft kept while offline");
  // Closed with Esc (as the dialog would be), and asked for again: a new attempt (not the first one's
  // failure kept), which fails again.
  await page.keyboard.press("Escape");
  await expect(failed).toHaveCount(0);
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("menuitem", { name: "Account" }).click();
  await expect(failed).toBeVisible();
  expect(askedForAccount()).toBeGreaterThan(firstAttempts);

  // A panel: the notice is where the panel would be, with "Try again".
  await page.getByRole("button", { name: "Channel details" }).click();
  await page.getByRole("menu", { name: "Channel details" }).getByRole("menuitem", { name: "Members" }).click();
  await expect(failed).toHaveCount(2);
  await failed.last().getByRole("button", { name: "Try again" }).click();
  await expect(failed).toHaveCount(2);
  await expect(page.getByRole("complementary", { name: "Members" })).toHaveCount(0);

  // The network back: both open by themselves, and nothing was lost.
  await context.setOffline(false);
  await expect(page.getByRole("dialog", { name: "Account" })).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Members" })).toBeVisible();
  await expect(failed).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Account" })).toBeHidden();
  await expect(box).toHaveValue("a draft kept while offline");
});
