import type { Browser, Page } from "@playwright/test";
import { expect, filesContaining, signIn, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { createChannel, joinAndOpen, keyPackagesSent, person, trioWithMessages } from "./helpers";
import { openDetail } from "./header-helpers";

// "Rename conversation" of a group (docs/decisions/0076-export-and-group-renames.md): the new name is
// sealed inside the group's MLS group; every participant's list shows it live and after a reload, and
// the server never holds it in clear; a participant's new device reads it though nobody has the group open.

test("Carol renames the group: Alice and Bob see the new name live and after a reload; the server never sees it", async ({ browser }) => {
  test.setTimeout(240_000);
  const { alice, bob, carol } = await trio(browser, "rename", "Rename Team");

  const newName = `Launch crew ${Date.now()}`;
  // Esc closes the dialog without renaming.
  await openDetail(carol.page, "Rename conversation");
  let dialog = carol.page.getByRole("dialog", { name: "Rename conversation" });
  await expect(dialog.getByLabel("Name")).toHaveValue("Trio");
  await expectAccessible(carol.page, "Rename conversation");
  await carol.page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await openDetail(carol.page, "Rename conversation");
  dialog = carol.page.getByRole("dialog", { name: "Rename conversation" });
  await dialog.getByLabel("Name").fill("   ");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Enter a name.")).toBeVisible();
  await dialog.getByLabel("Name").fill(newName);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(carol.page.getByRole("heading", { name: `@ ${newName}` })).toBeVisible({ timeout: 30_000 });

  // Live, on the others' lists (Bob has the group open, Alice does not).
  for (const p of [alice, bob])
    await expect(p.page.getByRole("button", { name: `@ ${newName}`, exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(bob.page.getByRole("heading", { name: `@ ${newName}` })).toBeVisible();

  // After a reload.
  for (const p of [alice, bob, carol]) {
    await p.page.reload();
    await expect(p.page.getByRole("button", { name: `@ ${newName}`, exact: true })).toBeVisible({ timeout: 30_000 });
  }
  await expect(alice.page.getByRole("button", { name: "@ Trio", exact: true })).toHaveCount(0);

  // Alice's new laptop, while nobody has the group open: it joins the group by itself (a new epoch),
  // and a page that knows the name seals it again for it.
  for (const p of [alice, bob, carol]) await p.page.getByRole("button", { name: "# Rename Team", exact: true }).click();
  const laptopContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const laptop = await laptopContext.newPage();
  await signIn(laptop, alice.user);
  await expect(laptop.getByRole("button", { name: `@ ${newName}`, exact: true })).toBeVisible({ timeout: 30_000 });

  // The server holds only ciphertext: the name is in no file of its data directory, nor in its logs.
  expect(filesContaining([process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!], newName)).toEqual([]);
  for (const p of [alice, bob, carol]) await p.context.close();
  await laptopContext.close();
});

test("Bob renames the group in the second Alice adds Dave: the new name is kept on every page, Dave's too", async ({ browser }) => {
  test.setTimeout(300_000);
  const [alice, bob, carol, dave] = [
    await person(browser, "renamea"),
    await person(browser, "renameb"),
    await person(browser, "renamec"),
    await person(browser, "renamed"),
  ];
  const password = `team-${Date.now()}`;
  const teamId = await createChannel(alice.page, "Rename Team", password);
  for (const p of [bob, carol, dave]) await joinAndOpen(p.page, teamId, password, "Rename Team");
  for (const p of [bob, carol, dave]) await keyPackagesSent(p);
  await trioWithMessages(alice, bob, carol, [`before the rename ${Date.now()}`, `an answer ${Date.now()}`]);
  await alice.page.getByRole("button", { name: "@ Trio", exact: true }).click();
  await expect(alice.page.getByRole("heading", { name: "@ Trio" })).toBeVisible();

  // Both dialogs ready, then both clicks at once: the add moves the group on as the rename is stored.
  await openDetail(alice.page, "Invite people");
  const add = alice.page.getByRole("dialog", { name: "Add people" });
  await add.getByRole("checkbox", { name: dave.user.username }).check();
  await openDetail(bob.page, "Rename conversation");
  const rename = bob.page.getByRole("dialog", { name: "Rename conversation" });
  await rename.getByLabel("Name").fill("Ship");
  await Promise.all([add.getByRole("button", { name: "Add", exact: true }).click(), rename.getByRole("button", { name: "Save" }).click()]);
  await expect(add).toBeHidden({ timeout: 30_000 });
  await expect(rename).toBeHidden({ timeout: 30_000 });

  // Dave, added after messages were written, is told they are there but not readable (not "No messages yet").
  await dave.page.getByRole("button", { name: /^@ (Ship|Trio)$/ }).click();
  await expect(dave.page.getByText("Messages sent while you were not in the conversation cannot be read.")).toBeVisible({
    timeout: 30_000,
  });
  await expect(dave.page.getByText("No messages yet. Say hello.")).toHaveCount(0);
  // Every page, Dave's too (added: he shares a channel with Alice), calls the group "Ship", also after a reload.
  for (const p of [alice, bob, carol, dave])
    await expect(p.page.getByRole("button", { name: "@ Ship", exact: true })).toBeVisible({ timeout: 30_000 });
  for (const p of [alice, bob, carol, dave]) {
    await p.page.reload();
    await expect(p.page.getByRole("button", { name: "@ Ship", exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(p.page.getByRole("button", { name: "@ Trio", exact: true })).toHaveCount(0);
  }
  for (const p of [alice, bob, carol, dave]) await p.context.close();
});

test("a rename in one of Alice's tabs shows live in her other tab, and Bob's rename after it in both", async ({ browser }) => {
  test.setTimeout(240_000);
  const { alice, bob, carol } = await trio(browser, "renametabs", "Tabs Team");
  const tab = await alice.context.newPage();
  await tab.goto(alice.page.url());
  await expect(tab.getByRole("heading", { name: "@ Trio" })).toBeVisible({ timeout: 30_000 });

  const rename = async (page: Page, name: string) => {
    await openDetail(page, "Rename conversation");
    const dialog = page.getByRole("dialog", { name: "Rename conversation" });
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("Name").press("Enter");
    await expect(dialog).toBeHidden({ timeout: 30_000 });
  };
  // The second tab renames: the first follows, as Bob and Carol do.
  await rename(tab, "Tabs one");
  for (const page of [alice.page, tab, bob.page, carol.page])
    await expect(page.getByRole("button", { name: "@ Tabs one", exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(alice.page.getByRole("heading", { name: "@ Tabs one" })).toBeVisible();
  // Bob renames: both of Alice's tabs follow.
  await rename(bob.page, "Tabs two");
  for (const page of [alice.page, tab, carol.page])
    await expect(page.getByRole("button", { name: "@ Tabs two", exact: true })).toBeVisible({ timeout: 30_000 });
  for (const page of [alice.page, tab]) await expect(page.getByRole("heading", { name: "@ Tabs two" })).toBeVisible();
});

/** Alice, Bob and Carol, sharing a channel (the picker offers them to each other), in the group "Trio" with two messages. */
async function trio(browser: Browser, prefix: string, team: string) {
  const [alice, bob, carol] = [
    await person(browser, `${prefix}a`),
    await person(browser, `${prefix}b`),
    await person(browser, `${prefix}c`),
  ];
  const password = `team-${Date.now()}`;
  const teamId = await createChannel(alice.page, team, password);
  await joinAndOpen(bob.page, teamId, password, team);
  await joinAndOpen(carol.page, teamId, password, team);
  for (const p of [bob, carol]) await keyPackagesSent(p);
  await trioWithMessages(alice, carol, bob, [`before the rename ${Date.now()}`, `an answer ${Date.now()}`]);
  return { alice, bob, carol };
}
