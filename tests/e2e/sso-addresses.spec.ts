import { expect, test } from "./fixtures";
import { copyInviteLink, createChannel, log, message, send } from "./helpers";
import { device, providerAccount, setUpEncryption, SETTINGS_ID, signInWithProvider, superuser, useProvider } from "./sso-helpers";

// Single sign-on keeps where the person was going (ADR 61: once signed in, the workspace opens what the
// address names; ADR 63): a message's address opened on a laptop whose session ended, and on a new
// phone, leads through the provider to that message. In a workspace that requires single sign-on, an
// invite's page offers "Sign in with Acme ID" (it offered only a password sign-up the server refuses),
// and the newcomer lands in the channel.

const provider = useProvider();
const PASSPHRASE = "copper lantern saddle river 9";

test("a message's address opened signed out leads through single sign-on to the message, on the laptop and on a new phone", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const carol = await providerAccount(provider(), "carol");
  const laptop = await device(browser);
  await signInWithProvider(laptop.page, carol);
  await setUpEncryption(laptop.page, PASSPHRASE, false);
  await expect(laptop.page.getByText(`@${carol.username}`)).toBeAttached({ timeout: 30_000 });
  await createChannel(laptop.page, "SSO Links", `sso-links-${Date.now()}`);
  await send(laptop.page, "the message to find");
  for (let i = 0; i < 3; i++) await send(laptop.page, `more ${i}`);
  const target = message(laptop.page, "the message to find");
  await target.hover();
  await target.getByRole("button", { name: "More" }).click();
  await laptop.page.getByRole("menuitem", { name: "Copy link to message" }).click();
  const link = await laptop.page.evaluate(() => navigator.clipboard.readText());
  expect(new URL(link).pathname).toMatch(/^\/c\/[^/]+\/m\/[a-z0-9]{15}$/);

  // The laptop's session ended (its keys stay): the address, the provider, and back at the message.
  await laptop.context.clearCookies();
  await laptop.page.goto(link);
  await signInWithProvider(laptop.page, carol, { from: null });
  await expect(laptop.page.getByRole("heading", { name: "# SSO Links" })).toBeVisible({ timeout: 30_000 });
  await expect(laptop.page).toHaveURL(link);
  await expect(message(laptop.page, "the message to find")).toBeVisible();

  // A new phone: the address, the provider, the passphrase, and the message.
  const phone = await device(browser, false, undefined, { phone: true });
  await phone.page.goto(link);
  await signInWithProvider(phone.page, carol, { from: null });
  await expect(phone.page.getByRole("heading", { name: "Unlock your encryption keys" })).toBeVisible({ timeout: 20_000 });
  await phone.page.getByLabel("Encryption passphrase").fill(PASSPHRASE);
  await phone.page.getByRole("button", { name: "Unlock", exact: true }).click();
  await expect(phone.page.getByRole("heading", { name: "# SSO Links" })).toBeVisible({ timeout: 30_000 });
  await expect(phone.page).toHaveURL(link);
  await expect(message(phone.page, "the message to find")).toBeVisible();
  for (const d of [laptop, phone]) await d.context.close();
});

test("a workspace that requires single sign-on: an invite's page offers it, and the newcomer lands in the channel", async ({ browser }) => {
  test.setTimeout(180_000);
  const lead = await providerAccount(provider(), "lead");
  const first = await device(browser);
  await signInWithProvider(first.page, lead);
  await setUpEncryption(first.page, PASSPHRASE, false);
  await expect(first.page.getByText(`@${lead.username}`)).toBeAttached({ timeout: 30_000 });
  await createChannel(first.page, "SSO Team", `sso-team-${Date.now()}`);
  await send(first.page, "welcome aboard");
  const invite = await copyInviteLink(first.page);
  await (await superuser()).collection("sso_settings").update(SETTINGS_ID, { required: true });
  try {
    const newcomer = await providerAccount(provider(), "newbie");
    const second = await device(browser);
    await second.page.goto(invite);
    await expect(second.page.getByText("You have been invited to #SSO Team")).toBeVisible({ timeout: 20_000 });
    await expect(second.page.getByText("This workspace requires single sign-on; only the owner signs in with a password.")).toBeVisible();
    await signInWithProvider(second.page, newcomer, { from: null });
    await setUpEncryption(second.page, "amber meadow lantern quartz 4", false);
    await expect(second.page.getByRole("heading", { name: "# SSO Team" })).toBeVisible({ timeout: 30_000 });
    await expect(log(second.page).getByText("welcome aboard")).toBeVisible({ timeout: 20_000 });
    await second.context.close();
  } finally {
    await (await superuser()).collection("sso_settings").update(SETTINGS_ID, { required: false });
  }
  await first.context.close();
});
