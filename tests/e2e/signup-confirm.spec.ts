import { expect, newUser, signIn, signOut, signUp } from "./fixtures";
import { openNotificationSettings } from "./helpers";
import { mailTest as test } from "./mail-stack";

// Sign-up keeps the address pending until the emailed link attaches it; a taken address is answered
// like a new one and its owner is told by mail (issue 47, docs/decisions/0082-pending-email-at-sign-up.md).

const CONFIRM = "Confirm your email address for ChatCrypt";
const TRIED = "Someone tried to sign up to ChatCrypt with your email address";

test("sign up, sign in by the pending address, open the emailed link: the address is the account's", async ({
  page,
  context,
  stack: { smtp, web },
}) => {
  const user = newUser("pend");
  await signUp(page, user);
  await openNotificationSettings(page);
  const dialog = page.getByRole("dialog", { name: "Notification Settings" });
  await dialog.getByLabel("Email notifications").check();
  await expect(dialog.getByText(`Emails go only to a verified address: ${user.email}.`)).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // before the link, the account signs in by the address it typed
  await signOut(page);
  await signIn(page, user);
  await expect(page.getByText(`@${user.username}`)).toBeAttached({ timeout: 20_000 });

  const mails = () => smtp.mailsTo(user.email).filter((mail) => mail.subject === CONFIRM);
  await expect.poll(() => mails().length, { timeout: 10_000 }).toBe(1);
  const link = /href="([^"]+)"/.exec(mails()[0].html)?.[1] ?? "";
  expect(link).toMatch(new RegExp(`^${web.url}/verify-email#token=`));

  const tab = await context.newPage();
  await tab.goto(link);
  await expect(tab.getByText("Email address verified.")).toBeVisible();
  await tab.close();

  await page.bringToFront();
  await page.reload();
  await openNotificationSettings(page);
  await dialog.getByLabel("Email notifications").check();
  await expect(dialog.getByText("Email address verified.")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Verify my email" })).toBeHidden();
});

test("sign-up with a taken address goes through like any other; the owner is told by mail", async ({
  page,
  browser,
  stack: { smtp, web },
}) => {
  const owner = newUser("owner");
  await signUp(page, owner);
  await expect.poll(() => smtp.mailsTo(owner.email).filter((mail) => mail.subject === CONFIRM).length, { timeout: 10_000 }).toBe(1);
  const link = /href="([^"]+)"/.exec(smtp.mailsTo(owner.email)[0].html)?.[1] ?? "";
  const tab = await page.context().newPage();
  await tab.goto(link);
  await expect(tab.getByText("Email address verified.")).toBeVisible();
  await tab.close();

  const other = await browser.newContext({ baseURL: web.url });
  const stranger = await other.newPage();
  const copycat = { ...newUser("copy"), email: owner.email };
  await signUp(stranger, copycat);
  await expect.poll(() => smtp.mailsTo(owner.email).filter((mail) => mail.subject === TRIED).length, { timeout: 10_000 }).toBe(1);
  expect(smtp.mailsTo(owner.email).filter((mail) => mail.subject === CONFIRM)).toHaveLength(1);

  // each password opens its own account
  await signOut(stranger);
  await signIn(stranger, copycat);
  await expect(stranger.getByText(`@${copycat.username}`)).toBeAttached({ timeout: 20_000 });
  await other.close();
  await expect(page.getByText(`@${owner.username}`)).toBeAttached();
});
