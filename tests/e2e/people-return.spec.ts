import { superuserClient } from "../integration/pocketbase";
import { expect, signIn, test } from "./fixtures";
import {
  createChannel,
  createSealed,
  joinAndOpen,
  keyPackagesSent,
  once,
  log,
  person,
  send,
  trioWithMessages,
  waitInGroup,
  waitLive,
} from "./helpers";

// Conversations that survive people changing. (1) A group conversation's list of participants, after
// Carol left it or deleted her account, was signed by Carol alone, who is not on it: a device with no
// list trusted yet (Bob's new laptop) refused it and never opened the group. A remaining participant's
// page now signs the list again. (2) Carol, who left a sealed channel, joined it again with the password
// on the same browser: her page followed its old state, found itself removed again, and stayed out.

test.use({ actionTimeout: 30_000 });

for (const how of ["leaves", "deletes her account"] as const)
  test(`after Carol ${how}, Bob's new device opens the group: history, and new messages both ways`, async ({ browser }) => {
    test.setTimeout(180_000);
    const alice = await person(browser, "alice");
    const bob = await person(browser, "bob");
    const carol = await person(browser, "carol");
    const password = `team-${Date.now()}`;
    const teamId = await createChannel(alice.page, "Leave Team", password);
    for (const p of [bob, carol]) await joinAndOpen(p.page, teamId, password, "Leave Team");
    for (const p of [bob, carol]) await keyPackagesSent(p);
    const t = Date.now().toString(36);
    await trioWithMessages(alice, bob, carol, [`from bob ${t}`, `from carol ${t}`]);

    if (how === "leaves") {
      await carol.page.getByRole("button", { name: "Leave Trio" }).click();
      await carol.page.getByRole("dialog", { name: "Leave Conversation" }).getByRole("button", { name: "Leave" }).click();
      await expect(carol.page.getByRole("button", { name: "@ Trio" })).toHaveCount(0);
    } else {
      await carol.page.getByRole("button", { name: "Menu", exact: true }).click();
      await carol.page.getByRole("menuitem", { name: "Account" }).click();
      const account = carol.page.getByRole("dialog", { name: "Account" });
      await account.getByRole("region", { name: "Delete account" }).getByRole("button", { name: "Delete account" }).click();
      const confirm = carol.page.getByRole("dialog", { name: "Delete your account?" });
      await confirm.getByLabel("Password").fill(carol.user.password);
      await confirm.getByRole("button", { name: "Delete my account" }).click();
      await expect(carol.page.getByRole("heading", { name: "Account deleted" })).toBeVisible({ timeout: 30_000 });
    }
    for (const p of [alice, bob]) await expect(log(p.page).getByText(/left the conversation/)).toBeVisible({ timeout: 30_000 });
    await send(alice.page, `after carol ${t}`);
    await once(bob.page, `after carol ${t}`);

    // Bob's new laptop: the group's history his devices read, and new messages both ways.
    const laptop = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    const page = await laptop.newPage();
    await signIn(page, bob.user);
    // (until it reads the name inside the group, the list calls it by its participants)
    await page.getByRole("region", { name: "Direct messages" }).getByRole("button", { name: /^@ / }).click();
    await waitLive(page);
    await once(page, `from bob ${t}`);
    await once(page, `after carol ${t}`);
    await send(alice.page, `to bob's laptop ${t}`);
    await once(page, `to bob's laptop ${t}`);
    await send(page, `from bob's laptop ${t}`);
    await once(alice.page, `from bob's laptop ${t}`);
    await laptop.close();
  });

test("Carol leaves a sealed channel and later joins it again with the password on the same browser", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const carol = await person(browser, "carol");
  const t = Date.now().toString(36);
  const vault = `Vault ${t}`;
  const vaultId = await createSealed(alice.page, vault, `vault-${t}`);
  await joinAndOpen(carol.page, vaultId, `vault-${t}`, vault);
  for (const p of [alice, carol]) await waitInGroup(p.page);
  await send(alice.page, `before ${t}`);
  await once(carol.page, `before ${t}`);

  const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const commits = async () =>
    (await su.collection("mls_commits").getFullList({ filter: su.filter("channel = {:c}", { c: vaultId }) })).length;
  const joined = await commits();
  await carol.page.getByRole("button", { name: `Leave ${vault}` }).click();
  await carol.page.getByRole("dialog", { name: "Leave Channel" }).getByRole("button", { name: "Leave" }).click();
  await expect(carol.page.getByRole("button", { name: `# ${vault}` })).toHaveCount(0);
  await expect(log(alice.page).getByText(`${carol.user.username} left the channel`)).toBeVisible({ timeout: 30_000 });
  await send(alice.page, `while carol is away ${t}`);
  // Alice's page has removed Carol's device from the group (a commit) before Carol comes back.
  await expect.poll(commits, { timeout: 30_000 }).toBeGreaterThan(joined);

  await joinAndOpen(carol.page, vaultId, `vault-${t}`, vault);
  await waitInGroup(carol.page);
  await send(alice.page, `welcome back ${t}`);
  await once(carol.page, `welcome back ${t}`);
  await send(carol.page, `carol back ${t}`);
  await once(alice.page, `carol back ${t}`);
  await carol.page.reload();
  await carol.page.getByRole("button", { name: `# ${vault}`, exact: true }).click();
  await once(carol.page, `welcome back ${t}`);
  await expect(carol.page.getByText(/no longer a member/)).toHaveCount(0);
});
