import { expect } from "./fixtures";
import { person } from "./helpers";
import { mailTest as test } from "./mail-stack";
import { askForReset, openSignUpLink } from "./reset-helpers";

// PocketBase mails one reset link per account every 2 minutes: a second "Send reset link" sooner sends
// nothing, and the page says so (it said "we sent a link" again, and no email came).

test("asking again for a reset link within 2 minutes says the first email's link stands", async ({ browser, stack }) => {
  const alice = await person(browser, "alice", stack.web.url);
  await openSignUpLink(alice.page, stack.smtp, alice.user.email);
  const context = await browser.newContext({ baseURL: stack.web.url });
  const page = await context.newPage();
  await askForReset(page, stack.smtp, alice.user.email);
  const mails = stack.smtp.mailsTo(alice.user.email).length;
  await page.getByRole("button", { name: "Send reset link" }).click();
  const said = page.getByRole("status");
  await expect(said).toContainText("less than 2 minutes ago, and no other is sent before");
  await expect(said).toContainText("use the link in that email.");
  expect(stack.smtp.mailsTo(alice.user.email)).toHaveLength(mails);
  // (another address is asked for as usual)
  await page.getByLabel("Email").fill(`nobody-${Date.now()}@example.test`);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(said).toHaveText("If an account exists for that address, we sent a link to reset its password.");
  await context.close();
  await alice.context.close();
});
