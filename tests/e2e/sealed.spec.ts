import { superuserClient } from "../integration/pocketbase";
import { expect, filesContaining, signIn, test } from "./fixtures";
import { createSealed, joinAndOpen, log, message, person, send, waitLive, type Person } from "./helpers";
import { sendFile } from "./send-file";
import { openDetail, securityCode } from "./header-helpers";

// Sealed channels (ADR 0015): three people in an MLS group through the real delivery service.

async function codesAgree(people: Person[]) {
  await expect.poll(async () => new Set(await Promise.all(people.map((p) => securityCode(p.page)))).size, { timeout: 30_000 }).toBe(1);
}

test("sealed channel: live messages, a file and a reaction; concurrent commits; removal holds against a malicious server; a second device reads from its join", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const carol = await person(browser, "carol");
  const password = `sealed-${Date.now()}`;
  const channelId = await createSealed(alice.page, "Vault", password);
  await joinAndOpen(bob.page, channelId, password, "Vault");
  await joinAndOpen(carol.page, channelId, password, "Vault");
  for (const p of [alice, bob, carol]) await waitLive(p.page);
  // Each device has joined the group (a member reads from the moment its device joined): one code for all.
  await codesAgree([alice, bob, carol]);

  // Messages flow live between the three.
  const canary = `sealed-canary-${Date.now()}`;
  await send(alice.page, `hello ${canary}`);
  await expect(log(bob.page).getByText(`hello ${canary}`)).toBeVisible({ timeout: 20_000 });
  await expect(log(carol.page).getByText(`hello ${canary}`)).toBeVisible({ timeout: 20_000 });
  await send(bob.page, "bob here");
  await expect(log(alice.page).getByText("bob here")).toBeVisible({ timeout: 20_000 });
  await expect(log(carol.page).getByText("bob here")).toBeVisible({ timeout: 20_000 });

  // A file, under its own key carried in the MLS message.
  const fileName = `sealed-notes-${Date.now()}.txt`;
  await sendFile(bob.page, { name: fileName, mimeType: "text/plain", buffer: Buffer.from(`file ${canary}`) });
  for (const p of [alice, carol]) await expect(log(p.page).getByText(fileName)).toBeVisible({ timeout: 30_000 });
  const [saved] = await Promise.all([
    alice.page.waitForEvent("download"),
    log(alice.page)
      .getByRole("button", { name: `Download ${fileName}` })
      .click(),
  ]);
  expect(saved.suggestedFilename()).toBe(fileName);

  // A reaction.
  const hello = message(carol.page, `hello ${canary}`);
  await hello.hover();
  await hello.getByRole("button", { name: "React" }).click();
  await carol.page.getByRole("menuitem", { name: "🎉" }).click();
  await expect(message(alice.page, `hello ${canary}`).getByRole("button", { name: "🎉 1" })).toBeVisible({ timeout: 20_000 });
  await expect(message(bob.page, `hello ${canary}`).getByRole("button", { name: "🎉 1" })).toBeVisible({ timeout: 20_000 });

  // Everyone still shares one epoch: the same code.
  await codesAgree([alice, bob, carol]);
  const before = await securityCode(alice.page);

  // Alice and Bob update the keys at the same moment while Carol writes: one commit wins, the other is
  // rebuilt on it; both end in the same epoch and nothing is lost.
  const updateKeys = async (p: Person) => {
    await openDetail(p.page, "Members");
    return p.page.getByRole("complementary", { name: "Members" }).getByRole("button", { name: "Update keys" });
  };
  const [aliceUpdate, bobUpdate] = await Promise.all([updateKeys(alice), updateKeys(bob)]);
  await Promise.all([aliceUpdate.click(), bobUpdate.click(), send(carol.page, "during the commits")]);
  for (const p of [alice, bob]) {
    await expect(p.page.getByRole("complementary", { name: "Members" }).getByRole("button", { name: "Update keys" })).toBeEnabled({
      timeout: 30_000,
    });
    await p.page.getByRole("button", { name: "Close members" }).click();
  }
  await send(alice.page, "after the commits");
  for (const p of [alice, bob, carol]) {
    await expect(log(p.page).getByText("during the commits")).toBeVisible({ timeout: 20_000 });
    await expect(log(p.page).getByText("after the commits")).toBeVisible({ timeout: 20_000 });
  }
  await codesAgree([alice, bob, carol]);
  expect(await securityCode(alice.page)).not.toBe(before);
  // Nothing was lost on the way: no page says it could not read a message.
  for (const p of [alice, bob, carol]) await expect(p.page.getByText(/could not be read/)).toHaveCount(0);

  // Carol is removed: Alice's page commits the removal of her device.
  const carolCode = await securityCode(carol.page);
  await openDetail(alice.page, "Members");
  const panel = alice.page.getByRole("complementary", { name: "Members" });
  await panel.getByRole("button", { name: `Remove ${carol.user.username}` }).click();
  await alice.page.getByRole("dialog", { name: "Remove Member" }).getByRole("button", { name: "Remove" }).click();
  await expect(panel.getByText(`@${carol.user.username}`)).toHaveCount(0);
  await alice.page.getByRole("button", { name: "Close members" }).click();
  await expect.poll(() => securityCode(alice.page), { timeout: 30_000 }).not.toBe(carolCode);
  const withoutCarol = await securityCode(alice.page);

  const secrets = [`after removal one ${canary}`, `after removal two ${canary}`];
  await send(alice.page, secrets[0]);
  await send(bob.page, secrets[1]);
  for (const text of secrets) {
    await expect(log(bob.page).getByText(text)).toBeVisible({ timeout: 20_000 });
    await expect(log(alice.page).getByText(text)).toBeVisible({ timeout: 20_000 });
  }

  // A malicious server (a superuser) makes Carol a member again, so her page is handed every later
  // ciphertext: she decrypts none of it, and her page says why.
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const carolProfile = await admin.collection("profiles").getOne(carol.id);
  await admin.collection("channel_members").create({ channel: channelId, user: carol.id, ecdh_public_key: carolProfile.ecdh_public_key });
  const handed = await admin.collection("messages").getFullList({ filter: `channel = "${channelId}"` });
  expect(handed.length).toBeGreaterThan(6);
  await carol.page.reload();
  await carol.page.getByRole("button", { name: "# Vault" }).click();
  await expect(carol.page.getByText("You are no longer a member of this sealed channel")).toBeVisible({ timeout: 30_000 });
  await expect(log(carol.page).getByText(`hello ${canary}`)).toBeVisible();
  for (const text of secrets) await expect(log(carol.page).getByText(text)).toHaveCount(0);
  // Reloaded again, her page does not join the group by itself either.
  await carol.page.reload();
  await carol.page.getByRole("button", { name: "# Vault" }).click();
  await expect(carol.page.getByText("You are no longer a member of this sealed channel")).toBeVisible({ timeout: 30_000 });
  for (const text of secrets) await expect(log(carol.page).getByText(text)).toHaveCount(0);
  // No device joined meanwhile: the group is the one without Carol.
  expect(await securityCode(alice.page)).toBe(withoutCarol);
  const carolStorage = await carol.page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
  for (const text of [...secrets, canary]) expect(carolStorage).not.toContain(text);
  await admin
    .collection("channel_members")
    .delete((await admin.collection("channel_members").getFirstListItem(`channel = "${channelId}" && user = "${carol.id}"`)).id);

  // Alice's second device joins with the password from her keyring; it shows what her first device read
  // (her message archive, ADR 0048) and reads from its join on.
  const second = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const secondPage = await second.newPage();
  await signIn(secondPage, alice.user);
  await secondPage.getByRole("button", { name: "# Vault" }).click();
  await expect(log(secondPage).getByText(`hello ${canary}`)).toBeVisible({ timeout: 30_000 });
  await expect(log(secondPage).getByText(secrets[1])).toBeVisible();
  await waitLive(secondPage);
  await send(bob.page, "welcome, second device");
  await expect(log(secondPage).getByText("welcome, second device")).toBeVisible({ timeout: 20_000 });
  await expect(log(alice.page).getByText("welcome, second device")).toBeVisible({ timeout: 20_000 });
  await send(secondPage, "from alice's second device");
  await expect(log(bob.page).getByText("from alice's second device")).toBeVisible({ timeout: 20_000 });
  await second.close();

  // Recovery: Bob's device loses its MLS state; it joins again by external commit, says so, keeps what
  // it had read, and reads what comes next.
  await bob.page.evaluate(({ userId, channel }) => localStorage.removeItem(`chatcrypt.sealed.${userId}.${channel}`), {
    userId: bob.id,
    channel: channelId,
  });
  await bob.page.reload();
  await bob.page.getByRole("button", { name: "# Vault" }).click();
  await expect(bob.page.getByText("This device rejoined the sealed channel")).toBeVisible({ timeout: 30_000 });
  await expect(log(bob.page).getByText(`hello ${canary}`)).toBeVisible();
  await waitLive(bob.page);
  await send(alice.page, "after bob's rejoin");
  await expect(log(bob.page).getByText("after bob's rejoin")).toBeVisible({ timeout: 20_000 });
  await codesAgree([alice, bob]);

  // The server's data holds none of it in clear.
  const dataDir = process.env.E2E_PB_DATA!;
  expect(filesContaining([dataDir], canary)).toEqual([]);
  expect(filesContaining([dataDir], fileName)).toEqual([]);
});
