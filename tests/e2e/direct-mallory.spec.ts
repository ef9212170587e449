import { exportPublicKey, generateKeyBundle } from "~/crypto";
import { deviceCredential } from "~/features/sealed/identity";
import { epochOf, externalJoin, newBoundKeyPackage, receive } from "~/features/sealed/mls";
import { postJson, signUpUser, superuserClient } from "../integration/pocketbase";
import { b64, bytes } from "../integration/mls-helpers";
import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, keyPackagesSent, log, person, send, waitLive } from "./helpers";

// A malicious server (its superuser) puts Mallory into Alice and Bob's direct conversation and lets her
// device join its MLS group by external commit. Mallory is a real user with real identity keys, so her
// device's credential holds; only the participant list inside the group, which no participant signed
// her onto, keeps her out. Her device runs here in Node with the app's own MLS code, as a server
// operator's would.

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

  // Mallory: a user with real keys; the server makes her a member of the conversation.
  const pbUrl = process.env.E2E_PB_URL!;
  const keys = await generateKeyBundle();
  const mallory = await signUpUser(pbUrl, {
    ecdh_public_key: await exportPublicKey(keys.ecdhPublicKey),
    rsa_public_key: await exportPublicKey(keys.rsaPublicKey),
  });
  const admin = await superuserClient(pbUrl, JSON.parse(process.env.E2E_SUPERUSER!));
  const dm = await admin.collection("channels").getFirstListItem(`direct = true && created_by = "${alice.id}"`);
  await admin.collection("channel_members").create({ channel: dm.id, user: mallory.id, ecdh_public_key: "k".repeat(60) });

  // Her device joins the group by external commit; the delivery service accepts it (she is listed there).
  const info = await postJson(pbUrl, "/api/chat/mls/group-info", { channel_id: dm.id }, mallory.token);
  expect(info.status).toBe(200);
  const { epoch, group_info } = info.json as { epoch: number; group_info: string };
  const device = await newBoundKeyPackage((key) =>
    deviceCredential(keys.rsaPrivateKey, { userId: mallory.id, device: "mallory-device" }, key),
  );
  const made = await externalJoin(bytes(group_info), device);
  const joined = await postJson(
    pbUrl,
    "/api/chat/mls/external-join",
    { channel_id: dm.id, epoch, commit: b64(made.commit), group_info: group_info, ecdh_public_key: "k".repeat(60) },
    mallory.token,
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

  // Mallory's device decrypts nothing sent after it joined: the next commit removes it.
  const records = await mallory.pb.collection("messages").getFullList({ filter: `channel = "${dm.id}" && epoch >= ${malloryEpoch}` });
  expect(records.length).toBeGreaterThan(0);
  const commits = await mallory.pb
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
