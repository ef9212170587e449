import PocketBase from "pocketbase";
import { deriveAccountSecrets, importKeyBundle } from "~/crypto";
import { deviceCredential } from "~/conversation/mls/identity";
import { epochOf, externalJoin, groupInfo, newBoundKeyPackage, receive } from "~/conversation/mls/mls";
import { postJson, superuserClient } from "../integration/pocketbase";
import { b64, bytes } from "../integration/mls-helpers";
import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, keyPackagesSent, log, person, send, waitLive } from "./helpers";

// A malicious server (its superuser) puts Mallory into Alice and Bob's direct conversation and lets a
// device of hers join its MLS group by external commit. Mallory is a real user with real identity keys,
// so her device's credential holds; only the participant list inside the group, which no participant
// signed her onto, keeps her out. That device runs here in Node with the app's own MLS code, as a
// server operator's would; her own page is shown the conversation too.

test("direct messages: a device the server puts into a conversation is refused by every participant's page and decrypts nothing", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `team-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Team", password);
  await joinAndOpen(bob.page, channelId, password, "Team");
  await keyPackagesSent(bob);

  await alice.page.getByRole("button", { name: "New message" }).click();
  const dialog = alice.page.getByRole("dialog", { name: "New message" });
  await dialog.getByRole("checkbox", { name: bob.user.username }).check();
  await dialog.getByRole("button", { name: "Start conversation" }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await waitLive(alice.page);
  await bob.page.getByRole("button", { name: `@ ${alice.user.username}`, exact: true }).click();
  await waitLive(bob.page);
  await send(alice.page, "before mallory");
  await expect(log(bob.page).getByText("before mallory")).toBeVisible({ timeout: 20_000 });

  // Mallory: a user signed up in her own browser, with real keys; the server makes her a member of the
  // conversation. Her page refuses to join a group whose list does not name her, so the server offers
  // a device of hers made here, with her own identity key from her browser's storage (as an operator
  // who got hold of it, or a page of its own making, would).
  const pbUrl = process.env.E2E_PB_URL!;
  const mallory = await person(browser, "mallory");
  const keys = await importKeyBundle(JSON.parse((await mallory.page.evaluate(() => localStorage.getItem("chatcrypt_keys")))!));
  const { loginSecret } = await deriveAccountSecrets(mallory.user.password, mallory.user.email);
  const malloryPb = new PocketBase(pbUrl);
  await malloryPb.collection("users").authWithPassword(mallory.user.email, loginSecret);
  const token = malloryPb.authStore.token;
  const admin = await superuserClient(pbUrl, JSON.parse(process.env.E2E_SUPERUSER!));
  const dm = await admin.collection("channels").getFirstListItem(`direct = true && created_by = "${alice.id}"`);
  await admin.collection("channel_members").create({ channel: dm.id, user: mallory.id, ecdh_public_key: "k".repeat(60) });

  // Her device joins the group by external commit; the delivery service accepts it (she is listed there).
  const info = await postJson(pbUrl, "/api/chat/mls/group-info", { channel_id: dm.id }, token);
  expect(info.status).toBe(200);
  const { epoch, group_info } = info.json as { epoch: number; group_info: string };
  const device = await newBoundKeyPackage((key) =>
    deviceCredential(keys.rsaPrivateKey, { userId: mallory.id, device: "mallory-device" }, key),
  );
  const made = await externalJoin(bytes(group_info), device);
  const joined = await postJson(
    pbUrl,
    "/api/chat/mls/external-join",
    { channel_id: dm.id, epoch, commit: b64(made.commit), group_info: b64(await groupInfo(made.state)), ecdh_public_key: "k".repeat(60) },
    token,
  );
  expect(joined.status).toBe(200);
  const malloryEpoch = Number(epochOf(made.state));

  // Alice writes: her page refuses Mallory's leaf, removes it before sealing, and says so; so does Bob's.
  const secret = `after mallory ${Date.now()}`;
  await send(alice.page, secret);
  await expect(log(bob.page).getByText(secret)).toBeVisible({ timeout: 30_000 });
  const warning = /was put into this conversation without a participant adding them/;
  await expect(alice.page.getByText(warning)).toBeVisible({ timeout: 20_000 });
  await expect(bob.page.getByText(warning)).toBeVisible({ timeout: 20_000 });

  // Mallory's page, opening the conversation the server lists for her, reads none of it.
  await mallory.page.reload();
  // (A one-to-one is called by its other person: for Mallory, one of the two.)
  await mallory.page.getByRole("button", { name: new RegExp(`^@ (${alice.user.username}|${bob.user.username})$`) }).click();
  await expect(mallory.page.getByText("This conversation could not be opened on this device. Please try again.")).toBeVisible({
    timeout: 30_000,
  });
  for (const text of ["before mallory", secret]) await expect(log(mallory.page).getByText(text)).toHaveCount(0);

  // Mallory's device decrypts nothing sent after it joined: the next commit removes it.
  const records = await malloryPb.collection("messages").getFullList({ filter: `channel = "${dm.id}" && epoch >= ${malloryEpoch}` });
  expect(records.length).toBeGreaterThan(0);
  const commits = await malloryPb
    .collection("mls_commits")
    .getFullList({ filter: `channel = "${dm.id}" && epoch >= ${malloryEpoch}`, sort: "epoch" });
  let state = made.state;
  for (const c of commits) {
    try {
      state = (await receive(state, bytes(c.data as string))).state;
    } catch {
      break;
    }
  }
  expect(state.groupActiveState.kind).toBe("removedFromGroup");
  for (const record of records) {
    for (const tried of [made.state, state]) {
      const opened = await receive(tried, bytes(record.encrypted_content as string)).catch(() => null);
      expect(opened?.plaintext).toBeUndefined();
    }
  }
});
