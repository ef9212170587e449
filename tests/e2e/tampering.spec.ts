import { randomBytes } from "node:crypto";
import { superuserClient } from "../integration/pocketbase";
import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, log, messageTexts, person, send } from "./helpers";

// The server (here: a PocketBase superuser, who bypasses every API rule) tries to slip messages in.
test("forged, replayed and tampered messages are dropped; genuine ones still arrive", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `tamper-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Tamper Test", password);
  const otherChannel = await createChannel(alice.page, "Other Room", password);
  await alice.page.getByRole("button", { name: "# Tamper Test" }).click();
  await joinAndOpen(bob.page, channelId, password, "Tamper Test");

  await send(alice.page, "genuine one");
  await expect(log(bob.page).getByText("genuine one")).toBeVisible();

  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const genuine = await admin.collection("messages").getFirstListItem(admin.filter("channel = {:c}", { c: channelId }));
  const envelope = JSON.parse(genuine.encrypted_content as string) as { v: number; iv: string; ct: string; sig: string };
  const flip = (b64: string) => {
    const bytes = Buffer.from(b64, "base64url");
    bytes[Math.floor(bytes.length / 2)] ^= 0x01;
    return bytes.toString("base64url");
  };
  const forged = [
    // made-up ciphertext and signature, claiming Alice
    {
      channel: channelId,
      sender: alice.id,
      encrypted_content: JSON.stringify({
        v: 1,
        iv: randomBytes(12).toString("base64url"),
        ct: randomBytes(40).toString("base64url"),
        sig: randomBytes(256).toString("base64url"),
      }),
    },
    // Alice's genuine envelope replayed under Bob's name
    { channel: channelId, sender: bob.id, encrypted_content: genuine.encrypted_content },
    // one flipped byte in the ciphertext, and one in the signature
    { channel: channelId, sender: alice.id, encrypted_content: JSON.stringify({ ...envelope, ct: flip(envelope.ct) }) },
    { channel: channelId, sender: alice.id, encrypted_content: JSON.stringify({ ...envelope, sig: flip(envelope.sig) }) },
    // not JSON at all
    { channel: channelId, sender: alice.id, encrypted_content: "plainly not an envelope" },
  ];
  for (const record of forged) await admin.collection("messages").create(record);
  // Alice's genuine envelope moved into another channel she is in
  await admin.collection("messages").create({ channel: otherChannel, sender: alice.id, encrypted_content: genuine.encrypted_content });

  await send(alice.page, "genuine two");
  await expect(log(bob.page).getByText("genuine two")).toBeVisible();
  expect(await messageTexts(bob.page)).toEqual(["genuine one", "genuine two"]);

  // History loading drops them too.
  await bob.page.reload();
  await bob.page.getByRole("button", { name: "# Tamper Test" }).click();
  await expect(log(bob.page).getByText("genuine two")).toBeVisible();
  expect(await messageTexts(bob.page)).toEqual(["genuine one", "genuine two"]);
  await alice.page.getByRole("button", { name: "# Other Room" }).click();
  await expect(alice.page.getByRole("heading", { name: "# Other Room" })).toBeVisible();
  await alice.page.waitForTimeout(500);
  expect(await messageTexts(alice.page)).toEqual([]);

  await alice.context.close();
  await bob.context.close();
});

// A server that lowers a channel's PBKDF2 count would make new messages' key cheap to brute-force.
test("a lowered PBKDF2 count from the server is ignored: the remembered count keeps the real key", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `kdf-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Work Factor", password);
  await joinAndOpen(bob.page, channelId, password, "Work Factor");
  await send(alice.page, "before the downgrade");
  await expect(log(bob.page).getByText("before the downgrade")).toBeVisible();

  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  await admin.collection("channels").update(channelId, { kdf_iterations: 100_000 });

  // After a reload Bob's page still derives the real key: the history reads, and what he sends reads for Alice.
  await bob.page.reload();
  await bob.page.getByRole("button", { name: "# Work Factor" }).click();
  await expect(log(bob.page).getByText("before the downgrade")).toBeVisible({ timeout: 20_000 });
  await send(bob.page, "after the downgrade");
  await expect(log(alice.page).getByText("after the downgrade")).toBeVisible();
  await alice.context.close();
  await bob.context.close();
});
