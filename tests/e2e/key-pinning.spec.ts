import { superuserClient } from "../integration/pocketbase";
import { exportPublicKey, generateKeyBundle } from "../../app/crypto";
import { expect, signIn, test } from "./fixtures";
import { createChannel, joinAndOpen, log, message, messageTexts, person, send, swapKeysAndForge, type Person } from "./helpers";
import { openDetail } from "./header-helpers";

const safetyGroups = async (viewer: Person, other: string) => {
  await openDetail(viewer.page, "Members");
  const panel = viewer.page.getByRole("complementary", { name: "Members" });
  await panel.getByRole("button", { name: `Safety number with ${other}` }).click();
  const number = panel.getByRole("group", { name: `Safety number with ${other}` });
  await expect(number.locator("span")).toHaveCount(12);
  return { panel, groups: await number.locator("span").allInnerTexts() };
};

// The server (here: a PocketBase superuser, who bypasses every API rule) swaps Bob's public keys in his
// profile and posts a message signed with its own key under Bob's name.
test("swapped identity keys: the channel warns, nothing signed by them is shown until accepted, what the pinned key signed stays; safety numbers match", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `pins-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Pinned Keys", password);
  await joinAndOpen(bob.page, channelId, password, "Pinned Keys");
  await send(bob.page, "genuine from bob");
  await expect(log(alice.page).getByText("genuine from bob")).toBeVisible();

  // Both sides see the same safety number; Alice marks Bob verified.
  const seenByAlice = await safetyGroups(alice, bob.user.username);
  const seenByBob = await safetyGroups(bob, alice.user.username);
  expect(seenByAlice.groups.every((g) => /^\d{5}$/.test(g))).toBe(true);
  expect(seenByBob.groups).toEqual(seenByAlice.groups);
  await seenByAlice.panel.getByRole("button", { name: `Mark ${bob.user.username} as verified` }).click();
  await expect(seenByAlice.panel.getByText("Verified", { exact: true })).toBeVisible();

  await swapKeysAndForge(bob, channelId, password);

  // A fresh page reads the swapped keys: the keyring's pin says they are not Bob's. The forged message
  // waits, counted; Bob's genuine one, signed by the key Alice pinned, stays, marked (ADR 0103).
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Pinned Keys" }).click();
  const warning = alice.page.getByRole("alert").filter({ hasText: `${bob.user.username}'s security keys changed` });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText(`1 message from ${bob.user.username} is waiting for you to accept his new keys`);
  await expect(message(alice.page, "genuine from bob").getByText(`Signed with ${bob.user.username}'s previous key`)).toBeVisible();
  await send(alice.page, "alice still writes");
  await expect(log(alice.page).getByText("alice still writes")).toBeVisible();
  expect(await messageTexts(alice.page)).toEqual(["genuine from bob", "alice still writes"]);

  // Alice's other device agrees: the pin lives in her keyring, not in this browser.
  const second = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const secondPage = await second.newPage();
  await signIn(secondPage, alice.user);
  await secondPage.getByRole("button", { name: "# Pinned Keys" }).click();
  await expect(secondPage.getByRole("alert").filter({ hasText: `${bob.user.username}'s security keys changed` })).toBeVisible();
  expect(await messageTexts(secondPage)).not.toContain("forged by the server");
  await second.close();

  // The members panel shows the change instead of a safety number.
  await openDetail(alice.page, "Members");
  const panel = alice.page.getByRole("complementary", { name: "Members" });
  await panel.getByRole("button", { name: `Safety number with ${bob.user.username}` }).click();
  await expect(panel.getByText(`${bob.user.username}'s security keys changed.`)).toBeVisible();
  await expect(panel.getByRole("group", { name: `Safety number with ${bob.user.username}` })).toHaveCount(0);

  // Accepting is the user's decision: then the messages signed by the new keys are shown. From the
  // keyboard, the focus goes on in the message box (it fell to the page's body with the notice).
  await alice.page.getByRole("button", { name: `Accept new keys of ${bob.user.username}` }).focus();
  await alice.page.keyboard.press("Enter");
  await expect(warning).toBeHidden();
  await expect(alice.page.getByLabel("Message", { exact: true })).toBeFocused();
  await expect(log(alice.page).getByText("forged by the server")).toBeVisible();
  await expect(panel.getByRole("group", { name: `Safety number with ${bob.user.username}` }).locator("span")).toHaveCount(12);
  await expect(panel.getByRole("button", { name: `Mark ${bob.user.username} as verified` })).toBeVisible();

  await alice.context.close();
  await bob.context.close();
});

test("a member who never wrote is pinned when the channel opens, and a later swap of their keys is announced", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `pins-quiet-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Quiet Member", password);
  await joinAndOpen(bob.page, channelId, password, "Quiet Member");
  // Alice's page sees Bob as a member (the list is read when the channel opens) and pins his keys.
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Quiet Member" }).click();
  await openDetail(alice.page, "Members");
  await expect(alice.page.getByRole("complementary", { name: "Members" }).getByText(`@${bob.user.username}`)).toBeVisible();
  await expect(async () => {
    const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
    expect(await admin.collection("key_pins").getFullList({ filter: `owner = "${alice.id}" && subject = "${bob.id}"` })).toHaveLength(1);
  }).toPass();

  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const mallory = await generateKeyBundle();
  await admin.collection("profiles").update(bob.id, {
    ecdh_public_key: await exportPublicKey(mallory.ecdhPublicKey),
    rsa_public_key: await exportPublicKey(mallory.rsaPublicKey),
  });
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Quiet Member" }).click();
  await expect(alice.page.getByRole("alert").filter({ hasText: `${bob.user.username}'s security keys changed` })).toBeVisible();

  await alice.context.close();
  await bob.context.close();
});
