import type { Page } from "@playwright/test";
import { expect, filesContaining, signOut, test } from "./fixtures";
import {
  newDevice,
  archivedCount,
  trioWithMessages,
  createChannel,
  createSealed,
  joinAndOpen,
  keyPackagesSent,
  log,
  openConversation,
  person,
  send,
  startConversation,
  waitInGroup,
  waitLive,
} from "./helpers";

// History on every own device (ADR 0048): what a user's devices read in sealed channels and direct
// conversations is kept in their archive on the server, sealed under a key only their own key pair
// derives; a new device of theirs shows it. Someone who joins later still reads only from their join.

const BEFORE_JOIN = "Messages sent before this device joined the sealed channel cannot be read here.";
// A direct conversation's words for the same (ADR 50).
const BEFORE_JOIN_DM = "Messages sent before this device joined the conversation cannot be read here.";
/** A member who joined after messages were sent: none of their devices can read those. */
const NOT_A_MEMBER = "Messages sent while you were not in the sealed channel cannot be read.";

/** The page shows every one of these texts of the open conversation, and no "cannot be read here" notice. */
async function showsAll(page: Page, texts: string[]) {
  for (const text of texts) await expect(log(page).getByText(text, { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(BEFORE_JOIN)).toHaveCount(0);
  await expect(page.getByText(BEFORE_JOIN_DM)).toHaveCount(0);
}

/**
 * Opens the group DM on a device that has not read its name yet: the name is sealed for the group's
 * epoch (ADR 50), and a device that joined by external commit reads it once a participant's page seals
 * it again for the new epoch; until then the list calls the group by its participants.
 */
async function openGroup(page: Page, name: string, member: string) {
  const either = new RegExp(`^@ (${name}|.*${member}.*)$`);
  await expect(page.getByRole("button", { name: either })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: either }).click();
  await waitLive(page);
}

test("history on every own device: a new device reads the DMs, a group DM and a sealed channel; a later member reads from their join", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const carol = await person(browser, "carol");
  const canary = `history-canary-${Date.now()}`;

  // A classic channel they share (the DM picker offers them to each other), and a sealed one of Bob's.
  const teamPassword = `team-${Date.now()}`;
  const teamId = await createChannel(alice.page, "Team", teamPassword);
  await joinAndOpen(bob.page, teamId, teamPassword, "Team");
  await joinAndOpen(carol.page, teamId, teamPassword, "Team");
  const vaultPassword = `vault-${Date.now()}`;
  const vaultId = await createSealed(bob.page, "Vault", vaultPassword);
  await joinAndOpen(alice.page, vaultId, vaultPassword, "Vault");
  await waitLive(bob.page);
  // Bob's first sealed message is for a group Alice's device is already in.
  for (const p of [bob.page, alice.page]) await waitInGroup(p);
  const sealed = [`sealed from bob ${canary}`, `sealed from alice ${canary}`];
  await send(bob.page, sealed[0]);
  await expect(log(alice.page).getByText(sealed[0])).toBeVisible({ timeout: 30_000 });
  await send(alice.page, sealed[1]);
  await expect(log(bob.page).getByText(sealed[1])).toBeVisible({ timeout: 30_000 });

  // A one-to-one and a group, each with messages both ways.
  for (const p of [bob, carol]) await keyPackagesSent(p);
  await startConversation(alice.page, [bob.user.username]);
  await waitLive(alice.page);
  const direct = [`dm from alice ${canary}`, `dm from bob ${canary}`];
  await send(alice.page, direct[0]);
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText(direct[0])).toBeVisible({ timeout: 30_000 });
  await send(bob.page, direct[1]);
  await expect(log(alice.page).getByText(direct[1])).toBeVisible({ timeout: 30_000 });

  const group: [string, string] = [`group from carol ${canary}`, `group from bob ${canary}`];
  await trioWithMessages(alice, carol, bob, group);

  // Bob's archive holds what his device read and sent (it sends in batches, off the path of reading).
  await expect.poll(() => archivedCount(bob.id), { timeout: 20_000 }).toBeGreaterThanOrEqual(6);

  // Bob's new laptop reads all of it, while the old one is still signed in.
  const laptop = await newDevice(browser, bob.user);
  await laptop.getByRole("button", { name: "# Vault" }).click();
  await showsAll(laptop, sealed);
  await openConversation(laptop, alice.user.username);
  await showsAll(laptop, direct);
  await openGroup(laptop, "Trio", carol.user.username);
  await showsAll(laptop, group);
  // ... and takes part: what it sends reaches the others, and what it reads is archived too.
  await send(laptop, "from bob's laptop");
  for (const p of [alice, carol]) await expect(log(p.page).getByText("from bob's laptop")).toBeVisible({ timeout: 30_000 });

  // Dave joins the sealed channel afterwards: he reads from his join only, as MLS intends.
  const dave = await person(browser, "dave");
  await joinAndOpen(dave.page, vaultId, vaultPassword, "Vault");
  await expect(dave.page.getByText(NOT_A_MEMBER)).toBeVisible({ timeout: 30_000 });
  await expect(dave.page.getByText(BEFORE_JOIN)).toHaveCount(0);
  for (const text of sealed) await expect(log(dave.page).getByText(text)).toHaveCount(0);
  await waitLive(dave.page);
  await send(dave.page, "dave joined");
  await bob.page.getByRole("button", { name: "# Vault" }).click();
  await expect(log(bob.page).getByText("dave joined")).toBeVisible({ timeout: 30_000 });

  // Both of Bob's devices signed out: a third one, with the password alone, still reads everything.
  await signOut(bob.page);
  await signOut(laptop);
  const phone = await newDevice(browser, bob.user);
  await phone.getByRole("button", { name: "# Vault" }).click();
  await showsAll(phone, [...sealed, "dave joined"]);
  await openConversation(phone, alice.user.username);
  await showsAll(phone, direct);
  await openGroup(phone, "Trio", carol.user.username);
  await showsAll(phone, [...group, "from bob's laptop"]);

  // The server holds the archive as ciphertext only: no message of it in clear in its data or logs.
  for (const needle of [...sealed, ...direct, ...group]) {
    expect(filesContaining([process.env.E2E_PB_DATA!], needle)).toEqual([]);
    expect(filesContaining([process.env.E2E_LOG_DIR!], needle)).toEqual([]);
  }
  expect(filesContaining([process.env.E2E_PB_DATA!], canary)).toEqual([]);
  for (const p of [alice, bob, carol, dave]) await p.context.close();
  await laptop.context().close();
  await phone.context().close();
});
