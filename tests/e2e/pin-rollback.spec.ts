import type { Browser } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, signIn, test } from "./fixtures";
import { createChannel, joinAndOpen, log, messageTexts, person, send, swapKeysAndForge, type Person } from "./helpers";
import { openDetail } from "./header-helpers";

// The server (a PocketBase superuser, who bypasses every API rule) tries to make Alice's devices
// forget that she pinned, and verified, Bob's keys: it deletes her pin for Bob, or puts back an older
// one, then presents keys of its own for Bob and signs a message with them. Her pins are checked as a
// whole against their sealed head and each device's own copy: nothing of the server's is shown, and
// every device warns.

const admin = () => superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));

/** A device of Alice's that never signed in before: it has no copy of the pins, only their head. */
async function freshDevice(browser: Browser, alice: Person, channel: string) {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await signIn(page, alice.user);
  await page.getByRole("button", { name: `# ${channel}` }).click();
  return { context, page };
}

async function pinRecord(alice: Person, bob: Person) {
  const records = await (await admin()).collection("key_pins").getFullList({ filter: `owner = "${alice.id}" && subject = "${bob.id}"` });
  return records[0];
}

test("a deleted or older pin for a verified contact is a warning on every device, never a first sight", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `rollback-${Date.now()}`;
  const channel = "Rolled Back";
  const channelId = await createChannel(alice.page, channel, password);
  await joinAndOpen(bob.page, channelId, password, channel);
  await send(bob.page, "genuine from bob");
  await expect(log(alice.page).getByText("genuine from bob")).toBeVisible();

  // Bob's pin as first saved (not verified); then Alice compares safety numbers and marks him verified.
  await expect(async () => expect(await pinRecord(alice, bob)).toBeTruthy()).toPass();
  const unverified = (await pinRecord(alice, bob)).data as string;
  await openDetail(alice.page, "Members");
  const panel = alice.page.getByRole("complementary", { name: "Members" });
  await panel.getByRole("button", { name: `Safety number with ${bob.user.username}` }).click();
  await panel.getByRole("button", { name: `Mark ${bob.user.username} as verified` }).click();
  await expect(panel.getByText("Verified", { exact: true })).toBeVisible();
  await expect(async () => expect((await pinRecord(alice, bob)).data).not.toBe(unverified)).toPass();

  // The server's own keys for Bob, and a message signed with them under his name.
  const server = await admin();
  await swapKeysAndForge(bob, channelId, password);

  const expectWarned = async (page: Person["page"], words: RegExp) => {
    await expect(page.getByRole("alert").filter({ hasText: words })).toBeVisible();
    await send(page, "alice still writes");
    await expect(log(page).getByText("alice still writes").first()).toBeVisible();
    expect(await messageTexts(page)).not.toContain("forged by the server");
  };
  const bobs = bob.user.username;

  // 1. The pin record is deleted.
  await server.collection("key_pins").delete((await pinRecord(alice, bob)).id);
  // This device kept its own copy of the pins: it still knows Bob's keys, and they are not these.
  await alice.page.reload();
  await alice.page.getByRole("button", { name: `# ${channel}` }).click();
  await expectWarned(alice.page, new RegExp(`${bobs}'s security keys changed`));
  // A device with no copy learns from the head that a pin for Bob existed: it cannot check his keys.
  const second = await freshDevice(browser, alice, channel);
  await expectWarned(second.page, new RegExp(`${bobs}'s security keys could not be checked`));
  await second.context.close();

  // 2. An older pin record (Bob's first, unverified) is put back in its place.
  await server.collection("key_pins").create({ owner: alice.id, subject: bob.id, data: unverified });
  await alice.page.reload();
  await alice.page.getByRole("button", { name: `# ${channel}` }).click();
  await expectWarned(alice.page, new RegExp(`${bobs}'s security keys changed`));
  const third = await freshDevice(browser, alice, channel);
  await expectWarned(third.page, new RegExp(`${bobs}'s security keys could not be checked`));
  // Nothing was pinned in the meantime: the server's keys are not Bob's on any device.
  expect((await pinRecord(alice, bob)).data).toBe(unverified);
  await third.context.close();

  await alice.context.close();
  await bob.context.close();
});
