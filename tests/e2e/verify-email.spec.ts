import { expect, newUser, signUp } from "./fixtures";
import { createChannel, openNotificationSettings } from "./helpers";
import { mailTest as test } from "./mail-stack";

// Email verification needs mail: this spec runs its own PocketBase with a loopback SMTP server, and a
// web server whose address is APP_URL (the start of the emailed link).

test("Notification Settings: verify the email address through the emailed link", async ({ page, context, stack: { smtp, web } }) => {
  const user = newUser("mail");
  await signUp(page, user);
  await createChannel(page, "Mail", "pw-mail-123");

  await openNotificationSettings(page);
  const dialog = page.getByRole("dialog", { name: "Notification Settings" });
  await expect(dialog.getByRole("button", { name: "Verify my email" })).toBeHidden();
  await dialog.getByLabel("Email notifications").check();
  await dialog.getByRole("button", { name: "Verify my email" }).click();
  await expect(dialog.getByText(`Verification email sent to ${user.email}. Open the link in it, then come back.`)).toBeVisible();
  await expect(dialog.getByText(/Verification pending/)).toBeVisible();

  // the link sent at sign-up, and the one asked for here
  await expect.poll(() => smtp.mailsTo(user.email).length, { timeout: 10_000 }).toBe(2);
  const link = /href="([^"]+)"/.exec(smtp.mailsTo(user.email)[1].html)?.[1] ?? "";
  expect(link).toMatch(new RegExp(`^${web.url}/verify-email#token=`));

  const tab = await context.newPage();
  await tab.goto(link);
  await expect(tab.getByText("Email address verified.")).toBeVisible();
  await expect(tab).not.toHaveURL(/token/);
  await tab.close();
  // a second click on either mail's button (the sign-up's too) says it is done, not that the link is dead
  for (const mail of smtp.mailsTo(user.email)) {
    const again = await context.newPage();
    await again.goto(/href="([^"]+)"/.exec(mail.html)?.[1] ?? "");
    await expect(again.getByText("Email address verified.")).toBeVisible();
    await again.close();
  }

  await page.bringToFront();
  await expect(dialog.getByText("Email address verified.")).toBeVisible({ timeout: 15_000 });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();

  // after a reload the page knows the address is verified
  await page.reload();
  await page.getByRole("button", { name: "# Mail" }).click();
  await openNotificationSettings(page);
  await expect(dialog.getByLabel("Email notifications")).toBeChecked();
  await expect(dialog.getByText("Email address verified.")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Verify my email" })).toBeHidden();
});

test("a broken or incomplete verification link says so", async ({ page }) => {
  await page.goto("/verify-email#token=not-a-real-token");
  await expect(page.getByRole("alert")).toHaveText(
    "This verification link is invalid or has expired. Ask for a new one in Notification Settings.",
  );
  await page.goto("/verify-email");
  await expect(page.getByRole("alert")).toHaveText("This verification link is incomplete. Open the link from the email again.");
});
