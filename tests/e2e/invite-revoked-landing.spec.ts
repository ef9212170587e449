import { expect, newUser, signUp, test } from "./fixtures";
import { copyInviteLink, createChannel, person } from "./helpers";
import { openDetail } from "./header-helpers";

// Carol opens a valid invite link signed out ("You have been invited to #x"); while she fills in the
// sign-up form, Alice revokes it. Nothing is joined, and ADR 57's "This invite was revoked." must say why:
// her sign-up reloads the page, which found the invite refused and kept it for a sign-in screen that,
// signed in, it never showed. She was told nothing.
test("an invite revoked while someone signs up from its page: nothing is joined, and the page says why", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const name = `Land ${Date.now() % 100000}`;
  await createChannel(alice.page, name, `land-${Date.now()}`);
  const link = await copyInviteLink(alice.page, { expires: "30 days", uses: "10 uses" });

  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const carol = await context.newPage();
  await carol.goto(link);
  await expect(carol.getByText(`You have been invited to #${name}`)).toBeVisible();

  await openDetail(alice.page, "Members");
  const invite = alice.page.getByRole("complementary", { name: "Members" }).getByRole("listitem").filter({ hasText: "of 10 uses" });
  await invite.getByRole("button", { name: /^Revoke/ }).click();
  await expect(invite).toContainText("revoked");

  await signUp(carol, newUser("carol"));
  await expect(carol.getByText("This invite was revoked.")).toBeVisible({ timeout: 15_000 });
  await expect(carol.getByRole("button", { name: `# ${name}`, exact: true })).toHaveCount(0);
  await context.close();
});
