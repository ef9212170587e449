import type { Page } from "@playwright/test";
import { expect, newUser, signIn, signUp } from "./fixtures";
import { createChannel, joinAndOpen, openNotificationSettings, person, recordNotifications, send, waitLive } from "./helpers";
import { mailTest as test, type MailStack } from "./mail-stack";

// Email notifications with several pages open: every open page of Bob's that is not in front asks for
// the mail (useNotifications), and one mail goes per message (pb_hooks/email_notification.pb.js): two
// tabs of one browser and a phone, all open in the background, one mention, one mail.

async function turnOnEmailNotifications(page: Page, email: string, { smtp }: MailStack) {
  const dialog = await openNotificationSettings(page);
  await dialog.getByLabel("Email notifications").check();
  // what a mail says without the message text: a direct message's names no conversation (notify_mail.go)
  await expect(
    dialog.getByText(
      "Off by default: emails then say only who wrote, and in which channel (a direct message's mail names no conversation), never what.",
    ),
  ).toBeVisible();
  await dialog.getByRole("button", { name: "Verify my email" }).click();
  await expect(dialog.getByText(/Verification pending/)).toBeVisible();
  // (the link sent at sign-up, and the one asked for here)
  await expect.poll(() => smtp.mailsTo(email).length, { timeout: 15_000 }).toBe(2);
  const link = /href="([^"]+)"/.exec(smtp.mailsTo(email)[1].html)?.[1] ?? "";
  const tab = await page.context().newPage();
  await tab.goto(link);
  await expect(tab.getByText("Email address verified.")).toBeVisible();
  await tab.close();
  await expect(dialog.getByText("Email address verified.")).toBeVisible({ timeout: 15_000 });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
}

/** The answer to this page's next email notification request. */
const emailAsked = (page: Page) =>
  page.waitForResponse((r) => r.url().endsWith("/api/notify-email"), { timeout: 20_000 }).then((r) => r.json() as Promise<unknown>);

test("one mention, one mail: two tabs and a phone of the same person all open", async ({ browser, stack }) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice", stack.web.url);
  const bob = newUser("bob");
  const laptop = await browser.newContext({ baseURL: stack.web.url });
  // (every window of Bob's in the background: headless pages report themselves focused otherwise)
  await recordNotifications(laptop);
  const first = await laptop.newPage();
  await signUp(first, bob);
  const name = `Mail Room ${Date.now() % 100_000}`;
  const channelId = await createChannel(alice.page, name, "mail-room-pw");
  await joinAndOpen(first, channelId, "mail-room-pw", name);
  await turnOnEmailNotifications(first, bob.email, stack);

  const second = await laptop.newPage();
  const phoneContext = await browser.newContext({
    baseURL: stack.web.url,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await recordNotifications(phoneContext);
  const phone = await phoneContext.newPage();
  await signIn(phone, bob);
  const pages = [first, second, phone];
  for (const page of pages) {
    await page.goto(`/c/${channelId}`);
    await expect(page.getByRole("heading", { name: `# ${name}` })).toBeVisible({ timeout: 30_000 });
    await waitLive(page);
  }

  const mailsBefore = stack.smtp.mailsTo(bob.email).length;
  const answers = pages.map(emailAsked);
  await send(alice.page, `@${bob.username} the numbers are in`);
  // every page asked; the server sent one mail, to the first
  const answered = (await Promise.all(answers)) as { sent: boolean; reason?: string }[];
  expect(answered.map((a) => a.reason ?? "sent").sort()).toEqual(["already sent", "already sent", "sent"]);
  const mails = stack.smtp.mailsTo(bob.email).slice(mailsBefore);
  expect(mails.map((m) => m.subject)).toEqual([`New mention in #${name}`]);
  expect(mails[0].raw).not.toContain("the numbers are in");
  await phoneContext.close();
  await laptop.close();
});
