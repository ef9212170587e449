// Invites with limits and removals that stick (docs/decisions/0057-invites-and-bans.md), in the browser:
// a one-use invite works once and then says it was used; expired and revoked invites say so; a signed-in
// person is asked "Join #x? Invited by NAME" before anything is joined; a removed member's old link is
// refused; a guest sees only the channel they were invited to.

import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, newUser, notNowRecoveryKey, signUp, test } from "./fixtures";
import { copyInviteLink, createChannel, joinChannel, person } from "./helpers";
import { openDetail } from "./header-helpers";
import { axe } from "./axe";

const superuser = () => superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
const inviteIdOf = (link: string) => new URL(link).searchParams.get("id")!;
/** Serious or critical axe violations on the page as it is (tests/e2e/a11y.spec.ts audits every other screen). */
const axeProblems = async (page: Page) =>
  (await axe(page).analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
const channelButton = (page: Page, name: string) => page.getByRole("button", { name: `# ${name}`, exact: true });

/** Opens an invite link in a page already signed in: the page asks, or says why it cannot be used. */
async function openSignedIn(page: Page, link: string) {
  await page.goto(link);
  await expect(page.getByRole("navigation", { name: "Channels" })).toBeVisible({ timeout: 20_000 });
}

test("an invite with one use works once, then its landing page says it was used", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const name = `Once ${Date.now() % 100000}`;
  await createChannel(alice.page, name, `once-${Date.now()}`);
  const link = await copyInviteLink(alice.page, { expires: "1 day", uses: "1 use" });

  const first = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const carol = await first.newPage();
  await carol.goto(link);
  await expect(carol.getByText(`You have been invited to #${name}`)).toBeVisible();
  await signUp(carol, newUser("carol"));
  await expect(carol.getByRole("heading", { name: `# ${name}` })).toBeVisible({ timeout: 20_000 });

  const second = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const dave = await second.newPage();
  await dave.goto(link);
  await expect(dave.getByRole("alert").filter({ hasText: "This invite has already been used." })).toBeVisible();
  await expect(dave.getByText("You have been invited")).toHaveCount(0);
  // signing up afterwards joins nothing, and a new account is not told again over its first dialogs
  await signUp(dave, newUser("dave"));
  await expect(dave.getByText("You are not in any channel yet", { exact: false })).toBeVisible();
  await expect(dave.getByRole("dialog", { name: "Invite" })).toHaveCount(0);
  // the same when the sign-up screen's check of the link is slow and the account is made before it answers
  const third = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const erin = await third.newPage();
  let slow = true;
  await erin.route("**/api/invites/*", async (route) => {
    if (slow && route.request().method() === "GET") await new Promise((resolve) => setTimeout(resolve, 8_000));
    await route.continue().catch(() => undefined);
  });
  await erin.goto(link);
  await expect(erin.getByRole("heading", { name: "Sign Up" })).toBeVisible();
  await expect(erin.getByText(`You have been invited to #${name}`)).toBeVisible();
  const newcomer = newUser("erin");
  await erin.getByLabel("Username").fill(newcomer.username);
  await erin.getByLabel("Email").fill(newcomer.email);
  await erin.getByLabel("Password").fill(newcomer.password);
  slow = false;
  await erin.getByRole("button", { name: "Sign Up", exact: true }).click();
  await notNowRecoveryKey(erin);
  await expect(erin.getByText("You are not in any channel yet", { exact: false })).toBeVisible();
  await expect(erin.getByRole("dialog", { name: "Invite" })).toHaveCount(0);
  await third.close();
  await first.close();
  await second.close();
  await alice.context.close();
});

test("an expired and a revoked invite say so, and nothing is joined", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const name = `Closed ${Date.now() % 100000}`;
  await createChannel(alice.page, name, `closed-${Date.now()}`);
  const expiring = await copyInviteLink(alice.page);
  const revoked = await copyInviteLink(alice.page, { expires: "30 days", uses: "10 uses" });
  await copyInviteLink(alice.page, { expires: "30 days", uses: "Unlimited" });

  const su = await superuser();
  await su.collection("invites").update(inviteIdOf(expiring), { expires: new Date(Date.now() - 60_000).toISOString().replace("T", " ") });
  await openSignedIn(bob.page, expiring);
  const expired = bob.page.getByRole("dialog", { name: "Invite" });
  await expect(expired.getByText("This invite has expired.")).toBeVisible();
  await expired.getByRole("button", { name: "Close" }).click();

  // Alice revokes it in the members panel, where the channel's invites are listed.
  await openDetail(alice.page, "Members");
  const panel = alice.page.getByRole("complementary", { name: "Members" });
  const row = panel.getByRole("listitem").filter({ hasText: "10 uses" });
  await expect(row).toContainText(`made by ${alice.user.username}`);
  // (each Revoke says which invite it takes back: the channel, its maker, expiry and uses)
  const revokes = panel.getByRole("button", { name: /^Revoke the invite to #/ });
  const names = await revokes.evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label")));
  expect(names.length).toBeGreaterThan(1);
  expect(new Set(names).size).toBe(names.length);
  await panel
    .getByRole("button", { name: new RegExp(`^Revoke the invite to #.* made by ${alice.user.username} on .*, 0 of 10 uses$`) })
    .click();
  await expect(row).toContainText("revoked");
  await expect(
    panel.getByText("Revoking an invite does not take back the channel's password from people who already saw it."),
  ).toBeVisible();

  await openSignedIn(bob.page, revoked);
  await expect(bob.page.getByRole("dialog", { name: "Invite" }).getByText("This invite was revoked.")).toBeVisible();
  await expect(channelButton(bob.page, name)).toHaveCount(0);
  await alice.context.close();
  await bob.context.close();
});

test('a signed-in person opening an invite is asked "Join #x? Invited by NAME" before joining', async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const name = `Asked ${Date.now() % 100000}`;
  await createChannel(alice.page, name, `asked-${Date.now()}`);
  const link = await copyInviteLink(alice.page);

  await openSignedIn(bob.page, link);
  const question = bob.page.getByRole("dialog", { name: `Join #${name}? Invited by ${alice.user.username}` });
  await expect(question).toBeVisible();
  expect(await axeProblems(bob.page)).toEqual([]);
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toBeHidden();
  await expect(channelButton(bob.page, name)).toHaveCount(0);

  await openSignedIn(bob.page, link);
  await bob.page
    .getByRole("dialog", { name: `Join #${name}? Invited by ${alice.user.username}` })
    .getByRole("button", { name: "Join" })
    .click();
  await expect(bob.page.getByRole("heading", { name: `# ${name}` })).toBeVisible({ timeout: 20_000 });
  await alice.context.close();
  await bob.context.close();
});

test("a removed member's old link is refused until the ban is lifted", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const name = `Removed ${Date.now() % 100000}`;
  const password = `removed-${Date.now()}`;
  const channelId = await createChannel(alice.page, name, password);
  const link = await copyInviteLink(alice.page);
  await openSignedIn(bob.page, link);
  await bob.page
    .getByRole("dialog", { name: /^Join #/ })
    .getByRole("button", { name: "Join" })
    .click();
  await expect(bob.page.getByRole("heading", { name: `# ${name}` })).toBeVisible({ timeout: 20_000 });

  // Bob has the channel open when he is removed: he is told so, and his page asks nothing more of it
  const refused: string[] = [];
  bob.page.on("response", (r) => r.status() >= 400 && refused.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
  await openDetail(alice.page, "Members");
  const panel = alice.page.getByRole("complementary", { name: "Members" });
  await panel.getByRole("button", { name: `Remove ${bob.user.username}` }).click();
  await alice.page.getByRole("dialog", { name: "Remove Member" }).getByRole("button", { name: "Remove" }).click();
  await expect(channelButton(bob.page, name)).toHaveCount(0, { timeout: 15_000 });
  await expect(bob.page.getByText(`You were removed from #${name}.`)).toBeVisible();
  await expect(bob.page.getByText("That channel is no longer available.")).toHaveCount(0);
  await expect(bob.page.getByRole("heading", { name: `# ${name}` })).toHaveCount(0);
  // (a request the page made after the removal would have come back within this bounded wait)
  await bob.page.waitForTimeout(3_000);
  expect(refused).toEqual([]);

  await openSignedIn(bob.page, link);
  await expect(bob.page.getByRole("dialog", { name: "Invite" }).getByText("You were removed from this channel.")).toBeVisible();
  await bob.page.getByRole("dialog", { name: "Invite" }).getByRole("button", { name: "Close" }).click();
  // nor with the password
  const dialog = await joinChannel(bob.page, channelId, password);
  await expect(dialog.getByText("You were removed from this channel.")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  expect(await axeProblems(alice.page)).toEqual([]);
  await panel.getByRole("button", { name: `Lift ban for ${bob.user.username}` }).click();
  await expect(panel.getByText("Nobody was removed.")).toBeVisible();
  await openSignedIn(bob.page, link);
  await bob.page
    .getByRole("dialog", { name: /^Join #/ })
    .getByRole("button", { name: "Join" })
    .click();
  await expect(bob.page.getByRole("heading", { name: `# ${name}` })).toBeVisible({ timeout: 20_000 });

  // made a workspace admin, Bob answers to no channel admin: Alice (the channel's creator, a member of the
  // workspace) is offered no "Remove" for him any more
  await (await superuser()).collection("profiles").update(bob.id, { role: "admin" });
  await alice.page.reload();
  await openDetail(alice.page, "Members");
  await expect(panel.getByRole("button", { name: `Make ${bob.user.username} a channel admin` })).toBeVisible({ timeout: 20_000 });
  await expect(panel.getByRole("button", { name: `Remove ${bob.user.username}` })).toHaveCount(0);
  await alice.context.close();
  await bob.context.close();
});

test("a guest sees only the channel they were invited to, and is offered no join by id and password", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const guest = await person(browser, "guest");
  const su = await superuser();
  await su.collection("profiles").update(guest.id, { role: "guest" });
  const stamp = Date.now() % 100000;
  await createChannel(alice.page, `Staff ${stamp}`, `other-${Date.now()}`);
  await createChannel(alice.page, `Guests ${stamp}`, `guests-${Date.now()}`);
  const link = await copyInviteLink(alice.page);

  await openSignedIn(guest.page, link);
  await guest.page
    .getByRole("dialog", { name: /^Join #/ })
    .getByRole("button", { name: "Join" })
    .click();
  await expect(guest.page.getByRole("heading", { name: `# Guests ${stamp}` })).toBeVisible({ timeout: 20_000 });
  const sidebar = guest.page.getByRole("navigation", { name: "Channels" });
  await expect(sidebar.getByRole("button", { name: /^# / })).toHaveCount(1);
  await expect(channelButton(guest.page, `Staff ${stamp}`)).toHaveCount(0);
  // A guest cannot make invites (ADR 0057): nothing offers one (it was offered, then refused as if a retry could do).
  await expect(guest.page.getByRole("button", { name: "Share Link" })).toHaveCount(0);
  await expect(guest.page.getByRole("button", { name: "Copy invite link" })).toHaveCount(0);
  await guest.page.getByRole("button", { name: "Channel details" }).click();
  await expect(guest.page.getByRole("menuitem", { name: "Members" })).toBeVisible();
  await expect(guest.page.getByRole("menuitem", { name: "Invite people" })).toHaveCount(0);
  await guest.page.keyboard.press("Escape");

  // Nor is a join by ID and password, which the server refuses a guest ("Guests join channels through an
  // invite.": tests/integration/invites.test.ts): it was offered, then refused.
  await expect(sidebar.getByRole("button", { name: "Join", exact: true })).toHaveCount(0);
  await alice.context.close();
  await guest.context.close();
});

test("a single-use invite opens its channel for whoever used it, on another device; someone else is told it was used", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const name = `Once ${Date.now() % 100000}`;
  await createChannel(alice.page, name, `once-${Date.now()}`);
  const link = await copyInviteLink(alice.page, { uses: "1 use" });
  // Nia signs up through it on her laptop
  const nia = newUser("nia");
  const laptop = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const laptopPage = await laptop.newPage();
  await laptopPage.goto(link);
  await expect(laptopPage).not.toHaveURL(/invite=/);
  await signUp(laptopPage, nia);
  await expect(laptopPage.getByRole("heading", { name: `# ${name}` })).toBeVisible({ timeout: 30_000 });

  // her phone, signed out: the sign-in screen says what to do; signed in, the channel opens
  const phone = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: { width: 390, height: 844 } });
  const phonePage = await phone.newPage();
  await phonePage.goto(link);
  await expect(phonePage.getByText("This invite has already been used. If you joined with it, sign in to open the channel.")).toBeVisible({
    timeout: 20_000,
  });
  const toSignIn = phonePage.getByRole("button", { name: "Already have an account? Sign in" });
  if (await toSignIn.isVisible()) await toSignIn.click();
  await phonePage.getByLabel("Email").fill(nia.email);
  await phonePage.getByLabel("Password").fill(nia.password);
  await phonePage.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(phonePage.getByRole("heading", { name: `# ${name}` })).toBeVisible({ timeout: 30_000 });
  await expect(phonePage.getByRole("dialog", { name: "Invite" })).toHaveCount(0);

  // someone else, signed in, is told it was used, and joins nothing
  const omar = await person(browser, "omar");
  await openSignedIn(omar.page, link);
  await expect(omar.page.getByRole("dialog", { name: "Invite" }).getByText("This invite has already been used.")).toBeVisible();
  await expect(channelButton(omar.page, name)).toHaveCount(0);
  for (const context of [alice.context, laptop, phone, omar.context]) await context.close();
});

test("one invite too many this hour is refused in the server's words, not as a failure to try again", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const name = `Many ${Date.now() % 100000}`;
  const channelId = await createChannel(alice.page, name, `many-${Date.now()}`);
  // thirty made this hour already (as the page would, one by one)
  const su = await superuser();
  for (let i = 0; i < 30; i++) await su.collection("invites").create({ channel: channelId, created_by: alice.id, max_uses: 0, uses: 0 });
  await alice.page.getByRole("button", { name: "Share Link" }).click();
  const dialog = alice.page.getByRole("dialog", { name: /^Invite to #/ });
  await dialog.getByRole("button", { name: "Copy invite link" }).click();
  await expect(alice.page.getByText("You made 30 invites in the last hour. Please wait a while before making more.")).toBeVisible();
  await expect(alice.page.getByText("Invite link copied")).toHaveCount(0);
  await alice.context.close();
});
