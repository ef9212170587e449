import type { Page } from "@playwright/test";
import { expect, newUser, signIn, signUp, test } from "./fixtures";
import { createChannel, joinAndOpen, log, openNotificationSettings, person, recordNotifications, send, waitLive } from "./helpers";
import { axe } from "./axe";

type Shown = { title: string; body: string }[];

/** Bob's device: notifications allowed, each one recorded, and the window reported as unfocused (only then are they shown). */
async function recordingBob(browser: import("@playwright/test").Browser) {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    permissions: ["notifications", "clipboard-read", "clipboard-write"],
  });
  await recordNotifications(context);
  const page = await context.newPage();
  const user = newUser("bob");
  await signUp(page, user);
  return { context, page, user };
}

const shown = (page: Page) => page.evaluate(() => (window as unknown as { __shown: Shown }).__shown);

/** Opens the conversation header's "Notifications" (its "Notification choices"). */
async function openChoices(page: Page) {
  await page.getByRole("button", { name: "Notifications", exact: true }).click();
  const panel = page.getByRole("group", { name: "Notification choices" });
  await expect(panel).toBeVisible();
  return panel;
}

/** Does `act` and waits until the rules it changed are saved. */
async function saved(page: Page, act: () => Promise<unknown>) {
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/notify-rules") && r.request().method() === "POST");
  await act();
  expect((await answer).status()).toBe(200);
}

const mutedMark = (page: Page) => page.getByRole("navigation", { name: "Channels" }).getByRole("img", { name: "Muted" });

test("notification choices per channel: Nothing, All messages, muted, Do not disturb; they survive a reload", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const bob = await recordingBob(browser);
  const password = `choices-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Choices", password);
  await joinAndOpen(bob.page, channelId, password, "Choices");
  await waitLive(alice.page);

  // Desktop notifications are on by default; a channel notifies for mentions only by default.
  await openNotificationSettings(bob.page);
  const settings = bob.page.getByRole("dialog", { name: "Notification Settings" });
  await settings.getByLabel("Desktop notifications").check();
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(settings).toBeHidden();

  // The default is marked; "Nothing": Alice's mention of Bob raises no notification.
  let panel = await openChoices(bob.page);
  const mentions = panel.getByRole("radio", { name: "Mentions and keywords" });
  await expect(mentions).toBeChecked();
  await expect(mentions).toHaveAccessibleDescription("(default)");
  const audit = await axe(bob.page).include(".notify-choices").analyze();
  expect(audit.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await saved(bob.page, () => panel.getByRole("radio", { name: "Nothing" }).check());
  await expect(panel.getByRole("radio", { name: "Nothing" })).toBeChecked();
  await send(alice.page, `@${bob.user.username} are you there?`);
  await expect(log(bob.page).getByText("are you there?")).toBeVisible();

  // "All messages": a plain message notifies (and the mention before it did not).
  await saved(bob.page, () => panel.getByRole("radio", { name: "All messages" }).check());
  await send(alice.page, "Plain news for everyone");
  await expect.poll(() => shown(bob.page)).toHaveLength(1);
  expect((await shown(bob.page))[0]).toEqual({ title: `${alice.user.username} in #Choices`, body: "Plain news for everyone" });
  // Bob is elsewhere when he clicks it: the page opens the channel at that message (the click did nothing).
  await createChannel(bob.page, "Elsewhere", `elsewhere-${Date.now()}`);
  await bob.page.evaluate(() =>
    (window as unknown as { __notifications: Notification[] }).__notifications[0].dispatchEvent(new Event("click")),
  );
  await expect(bob.page.getByRole("heading", { name: "# Choices" })).toBeVisible();
  await expect(bob.page).toHaveURL(new RegExp(`/c/${channelId}/m/[a-z0-9]{15}$`));
  await expect(log(bob.page).getByRole("article").filter({ hasText: "Plain news for everyone" })).toHaveClass(/highlight/);
  panel = await openChoices(bob.page);

  // Muted: nothing notifies, and the sidebar marks the channel "Muted".
  await expect(mutedMark(bob.page)).toHaveCount(0);
  await saved(bob.page, () => panel.getByRole("button", { name: "Mute for 1 hour" }).click());
  await expect(panel.getByText(/^Muted until (\w+ )?\d\d:\d\d$/)).toBeVisible();
  await expect(panel.getByRole("button", { name: "Unmute" })).toBeVisible();
  await expect(mutedMark(bob.page)).toBeVisible();
  await bob.page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await send(alice.page, `@${bob.user.username} muted, so quiet`);
  await expect(log(bob.page).getByText("muted, so quiet")).toBeVisible();
  await bob.page.waitForTimeout(1_000);
  expect(await shown(bob.page)).toHaveLength(1);

  // After a reload: still muted, still "All messages".
  await bob.page.reload();
  await bob.page.getByRole("button", { name: "# Choices" }).click();
  await waitLive(bob.page);
  await expect(mutedMark(bob.page)).toBeVisible();
  panel = await openChoices(bob.page);
  await expect(panel.getByRole("radio", { name: "All messages" })).toBeChecked();
  await saved(bob.page, () => panel.getByRole("button", { name: "Unmute" }).click());
  await expect(mutedMark(bob.page)).toHaveCount(0);
  await expect(panel.getByRole("button", { name: "Unmute" })).toHaveCount(0);
  await bob.page.keyboard.press("Escape");
  await send(alice.page, "Back on the air");
  await expect.poll(() => shown(bob.page)).toEqual([{ title: `${alice.user.username} in #Choices`, body: "Back on the air" }]);

  // Paused for an hour (beside Do not disturb, saved at once): nothing notifies until Resume.
  await openNotificationSettings(bob.page);
  await saved(bob.page, () => settings.getByRole("button", { name: "Pause notifications for 1 h" }).click());
  await expect(settings.getByText(/^Notifications paused until (\w+ )?\d\d:\d\d$/)).toBeVisible();
  await expect(settings.getByRole("button", { name: "Pause notifications until tomorrow" })).toHaveCount(0);
  await bob.page.keyboard.press("Escape");
  await expect(settings).toBeHidden();
  await send(alice.page, "Paused, so quiet");
  await expect(log(bob.page).getByText("Paused, so quiet")).toBeVisible();
  await openNotificationSettings(bob.page);
  await saved(bob.page, () => settings.getByRole("button", { name: "Resume notifications" }).click());
  await expect(settings.getByRole("button", { name: "Pause notifications until tomorrow" })).toBeVisible();
  await bob.page.keyboard.press("Escape");
  await expect(settings).toBeHidden();
  await send(alice.page, "Resumed");
  await expect
    .poll(() => shown(bob.page))
    .toEqual([
      { title: `${alice.user.username} in #Choices`, body: "Back on the air" },
      { title: `${alice.user.username} in #Choices`, body: "Resumed" },
    ]);

  // Muted on Bob's phone: his laptop, open, marks it at once and stays quiet; unmuted there, the mark goes.
  const phoneContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const phone = await phoneContext.newPage();
  await signIn(phone, bob.user);
  await phone.getByRole("button", { name: "# Choices" }).click();
  await waitLive(phone);
  const onPhone = await openChoices(phone);
  await saved(phone, () => onPhone.getByRole("button", { name: "Mute for 1 hour" }).click());
  await expect(mutedMark(bob.page)).toBeVisible();
  await send(alice.page, `@${bob.user.username} muted on the phone`);
  await expect(log(bob.page).getByText("muted on the phone")).toBeVisible();
  await saved(phone, () => onPhone.getByRole("button", { name: "Unmute" }).click());
  await expect(mutedMark(bob.page)).toHaveCount(0);
  await phoneContext.close();
  expect(await shown(bob.page)).toHaveLength(2);

  // Do not disturb, from an hour ago to an hour from now in the browser's time zone: nothing notifies.
  const [from, to, zone] = await bob.page.evaluate(() => {
    const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
    return [
      hhmm(new Date(Date.now() - 3_600_000)),
      hhmm(new Date(Date.now() + 3_600_000)),
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    ];
  });
  await openNotificationSettings(bob.page);
  await expect(
    settings.getByText(
      "To notify you when ChatCrypt is closed, the server keeps each conversation's notification choice, your mutes and your Do not disturb hours. Keywords stay encrypted: they notify only while ChatCrypt is open.",
    ),
  ).toBeVisible();
  await expect(settings.getByText(`Times in ${zone}`)).toBeVisible();
  await settings.getByLabel("Do not disturb from").check();
  await settings.getByLabel("From", { exact: true }).fill(from);
  await settings.getByLabel("To", { exact: true }).fill(to);
  await saved(bob.page, () => settings.getByRole("button", { name: "Save" }).click());
  await expect(settings).toBeHidden();
  await send(alice.page, `@${bob.user.username} late-night question`);
  await expect(log(bob.page).getByText("late-night question")).toBeVisible();
  await bob.page.waitForTimeout(1_000);
  expect(await shown(bob.page)).toHaveLength(2);

  // The hours survive a reload too.
  await bob.page.reload();
  await bob.page.getByRole("button", { name: "# Choices" }).click();
  await openNotificationSettings(bob.page);
  await expect(settings.getByLabel("Do not disturb from")).toBeChecked();
  await expect(settings.getByLabel("From", { exact: true })).toHaveValue(from);
  await expect(settings.getByLabel("To", { exact: true })).toHaveValue(to);
  await alice.context.close();
  await bob.context.close();
});
