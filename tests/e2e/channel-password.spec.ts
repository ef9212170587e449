// Changing a classic channel's password (docs/decisions/0060-changing-the-channel-password.md), in the
// browser: a channel admin changes it in the members panel; a current member's page, open all along,
// reads the messages sent before and after (and again after a reload, from its keyring); the old invite
// link no longer joins; whoever knew only the old password cannot read what is sent afterwards.

import type { Page } from "@playwright/test";
import { decryptMessage, deriveChannelSecrets, importRsaPublicKey } from "../../app/crypto";
import { superuserClient } from "../integration/pocketbase";
import { expect, test } from "./fixtures";
import { copyInviteLink, createChannel, joinAndOpen, joinChannel, message, person, send } from "./helpers";
import { openDetail } from "./header-helpers";

const superuser = () => superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));

async function changePassword(page: Page, password: string) {
  await openDetail(page, "Members");
  const panel = page.getByRole("complementary", { name: "Members" });
  await expect(
    panel.getByText("Revoking an invite does not take back the channel's password from people who already saw it."),
  ).toBeVisible();
  await panel.getByRole("button", { name: "Change the channel password" }).click();
  const dialog = page.getByRole("dialog", { name: "Change the channel password" });
  await dialog.getByLabel("New channel password").fill(password);
  await dialog.getByRole("button", { name: "Change password" }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(panel.getByRole("status")).toHaveText("The channel password was changed. 1 invite was revoked.");
  await panel.getByRole("button", { name: "Close members" }).click();
}

test("a channel admin changes the password: members read old and new messages, the old link and password no longer open anything", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const name = `Rekeyed ${Date.now() % 100000}`;
  const oldPassword = `old-${Date.now()}`;
  const channelId = await createChannel(alice.page, name, oldPassword);
  await joinAndOpen(bob.page, channelId, oldPassword, name);
  await send(alice.page, "sent before the change");
  await expect(message(bob.page, "sent before the change")).toBeVisible({ timeout: 20_000 });
  const oldLink = await copyInviteLink(alice.page, { uses: "10 uses" });

  await changePassword(alice.page, `new-${Date.now()}-password`);
  await send(alice.page, "sent after the change");
  // bob's page was open all along: it reads both, without a reload
  await expect(message(bob.page, "sent after the change")).toBeVisible({ timeout: 20_000 });
  await expect(message(bob.page, "sent before the change")).toBeVisible();
  await send(bob.page, "bob answers under the new password");
  await expect(message(alice.page, "bob answers under the new password")).toBeVisible({ timeout: 20_000 });
  // and again from his keyring after a reload
  await bob.page.reload();
  await bob.page.getByRole("button", { name: `# ${name}`, exact: true }).click();
  await expect(message(bob.page, "sent before the change")).toBeVisible({ timeout: 20_000 });
  await expect(message(bob.page, "sent after the change")).toBeVisible();

  // the old invite link no longer joins; nor does the old password
  const carol = await person(browser, "carol");
  await carol.page.goto(oldLink);
  await expect(carol.page.getByRole("dialog", { name: "Invite" }).getByText("This invite was revoked.")).toBeVisible({ timeout: 20_000 });
  await carol.page.getByRole("button", { name: "Close" }).click();
  const refused = await joinChannel(carol.page, channelId, oldPassword);
  await expect(refused.getByText("Incorrect password")).toBeVisible({ timeout: 20_000 });
  // carol is no member: the API gives her nothing of the channel
  const answer = await carol.page.request.get(`/api/channels/${channelId}/messages`);
  if (answer.ok()) expect(((await answer.json()) as { messages: unknown[] }).messages).toEqual([]);
  else expect(answer.status()).toBeLessThan(500);

  // what is stored after the change does not open with the old password's key; what was before does
  const su = await superuser();
  const records = await su.collection("messages").getFullList({ filter: su.filter("channel = {:c}", { c: channelId }), sort: "created" });
  const profile = await su.collection("profiles").getOne(alice.id);
  const verifyKey = await importRsaPublicKey(profile.rsa_public_key as string);
  const channel = await su.collection("channels").getOne(channelId);
  const { key } = await deriveChannelSecrets(oldPassword, channelId, channel.kdf_iterations as number);
  const open = (r: (typeof records)[number]) =>
    decryptMessage({ key, channelId, senderId: r.sender as string, envelope: r.encrypted_content as string, verifyKey });
  const fromAlice = records.filter((r) => r.sender === alice.id && !r.kind);
  expect(fromAlice).toHaveLength(2);
  await expect(open(fromAlice[0])).resolves.toContain("sent before the change");
  await expect(open(fromAlice[1])).rejects.toThrow("authentication failed");

  await Promise.all([alice.context.close(), bob.context.close(), carol.context.close()]);
});
