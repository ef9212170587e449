import { virtualAuthenticator } from "./authenticator";
import { joinCall, startCall } from "./calls-helpers";
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { administrator, auditLog, changeStatus, findPerson, makeAdmin, openConsole } from "./admin-helpers";
import { expect, signIn, test, MISSING_CALL_KEY, REMOVED_FROM_CALL } from "./fixtures";
import {
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

// Deactivation (ADR 0056): an administrator deactivates Carol while her page is open. Her page goes to
// the sign-in screen with the reason, her password and passkey sign-ins are refused with it, Alice's page
// removes her devices from the sealed channel's and the direct conversation's MLS groups and says so, and
// Carol's device state, saved before and replayed after, reads nothing sent since. Reactivated, she signs
// in to an empty list. The owner names the admin in the console; the audit log there lists each step and
// verifies, and names the entry changed through the superuser's API. Pages open at localhost: WebAuthn refuses an IP address as a site's RP ID.
const BASE = process.env.E2E_BASE_URL!.replace("127.0.0.1", "localhost");
const DEACTIVATED = "This account was deactivated by an administrator.";

/**
 * The People section's Deactivate / Reactivate buttons (the admin console) call this route; here the
 * admin's page calls it the same way, with its own CSRF token.
 */
test("deactivating Carol: her page signs out with the reason, sign-ins are refused, her devices leave every group, and reactivation gives her an empty account", async ({
  browser,
  consoleErrors,
}) => {
  // (LiveKit's decoder says so for frames of the new key until it has it)
  consoleErrors.allow(MISSING_CALL_KEY);
  // (and the removal, on her page, may race LiveKit's own notice of it)
  consoleErrors.allow(REMOVED_FROM_CALL);
  test.setTimeout(300_000);
  const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  // The worker's stack is shared by every spec: its first account (the owner) may be anyone's, so the
  // superuser names this test's owner, who makes Bob (here "boss") an admin in the console.
  const owner = await person(browser, "owner", BASE);
  await su.collection("profiles").update(owner.id, { role: "owner" });
  const admin = await person(browser, "boss", BASE);
  // (a page learns its role when it loads)
  await owner.page.reload();
  await openConsole(owner.page);
  await makeAdmin(owner.page, admin.user.username);
  await owner.context.close();
  await admin.page.reload();
  const alice = await person(browser, "alice", BASE);
  const carol = await person(browser, "carol", BASE);
  const tag = randomBytes(3).toString("hex");

  // Carol in a sealed channel and a direct conversation with Alice, both read on her device.
  const vault = `Vault ${tag}`;
  const password = `vault-${tag}`;
  const vaultId = await createSealed(alice.page, vault, password);
  await joinAndOpen(carol.page, vaultId, password, vault);
  await waitLive(alice.page);
  // Alice's first sealed message is for a group Carol's device is already in.
  for (const p of [alice.page, carol.page]) await waitInGroup(p);
  await send(alice.page, "before, in the vault");
  await expect(log(carol.page).getByText("before, in the vault")).toBeVisible({ timeout: 30_000 });
  await send(carol.page, "carol was here");
  await expect(log(alice.page).getByText("carol was here")).toBeVisible({ timeout: 30_000 });
  await keyPackagesSent(carol);
  await startConversation(alice.page, [carol.user.username]);
  await waitLive(alice.page);
  await openConversation(carol.page, alice.user.username);
  await send(alice.page, "before, just us");
  await expect(log(carol.page).getByText("before, just us")).toBeVisible({ timeout: 30_000 });

  // Her passkey, and everything her device keeps, saved before.
  const { authenticatorId, cdp } = await virtualAuthenticator(carol.page);
  await carol.page.getByRole("button", { name: "Menu", exact: true }).click();
  await carol.page.getByRole("menuitem", { name: "Account" }).click();
  const account = carol.page.getByRole("dialog", { name: "Account" });
  await account.getByLabel("Passkey name").fill("Carol's key");
  await account.getByRole("button", { name: "Add a passkey" }).click();
  await expect(account.getByRole("status").filter({ hasText: "Passkey added." })).toBeVisible({ timeout: 30_000 });
  await carol.page.keyboard.press("Escape");
  await expect(account).toBeHidden();
  await carol.page.getByRole("button", { name: `# ${vault}`, exact: true }).click();
  await waitLive(carol.page);
  // A call in the vault, Carol in it.
  await alice.page.getByRole("button", { name: `# ${vault}`, exact: true }).click();
  await startCall(alice.page);
  const people = (page: Page) =>
    page.getByRole("region", { name: "Call", exact: true }).getByRole("list", { name: "Participants" }).getByRole("listitem");
  await expect(alice.page.getByRole("region", { name: "Call", exact: true }).getByText("End-to-end encrypted")).toBeVisible({
    timeout: 20_000,
  });
  await joinCall(carol.page);
  await expect(people(alice.page)).toHaveCount(2, { timeout: 20_000 });
  const saved = await carol.context.storageState({ indexedDB: true });

  // The admin deactivates her while her page is open: within 5 s it is the sign-in screen, saying why.
  await openConsole(admin.page);
  await findPerson(admin.page, carol.user.username);
  const deactivatedAt = Date.now();
  const deactivating = changeStatus(admin.page, carol.user.username, "deactivate");
  await expect(carol.page.getByText(DEACTIVATED)).toBeVisible({ timeout: 5_000 });
  await deactivating;
  await expect(carol.page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  console.log(`deactivation reached Carol's page in ${Date.now() - deactivatedAt} ms`);
  // The call dropped her.
  await expect(people(alice.page)).toHaveCount(1, { timeout: 10_000 });
  // She did not leave: the call says why she is gone.
  const call = alice.page.getByRole("region", { name: "Call", exact: true });
  await expect(call.getByRole("status")).toHaveText(`${carol.user.username} was removed by an administrator. You are the only one in it.`);
  await call.getByRole("button", { name: "Leave call" }).click();

  // Her password and her passkey are refused with the reason.
  await signIn(carol.page, carol.user);
  await expect(carol.page.getByText(DEACTIVATED)).toBeVisible({ timeout: 10_000 });
  await carol.page.reload();
  await carol.page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(carol.page.getByText(DEACTIVATED)).toBeVisible({ timeout: 20_000 });
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials.length).toBe(1);

  // Alice's page removed her devices from both groups and says so; what Alice sends next is for Alice alone.
  const removed = `${carol.user.username} was removed by an administrator`;
  await alice.page.getByRole("button", { name: `# ${vault}`, exact: true }).click();
  await expect(alice.page.getByText(removed)).toBeVisible({ timeout: 30_000 });
  await send(alice.page, `after, in the vault ${tag}`);
  await openConversation(alice.page, carol.user.username);
  await expect(alice.page.getByText(removed)).toBeVisible({ timeout: 30_000 });
  // (a line among the messages, after the last one before it: it stood above them all)
  await expect(log(alice.page).locator(".chat-event, article").last()).toHaveText(removed);
  // Alice's page, open since she started the conversation, knew Carol's device: no alarm about a device
  // put in without a participant. The one-to-one says why nothing can be written there any more.
  await expect(alice.page.getByText(/was put into this conversation without a participant adding them/)).toHaveCount(0);
  await expect(
    alice.page
      .getByRole("status")
      .filter({ hasText: `${carol.user.username} was deactivated by an administrator: nothing written here can reach them.` }),
  ).toBeVisible();
  await expect(alice.page.getByLabel("Message", { exact: true })).toHaveCount(0);
  // (nor can a call: it reaches nobody)
  await expect(alice.page.getByRole("button", { name: "Start call" })).toHaveCount(0);
  await expect(alice.page.getByText(`Waiting for ${carol.user.username} to accept your request`)).toHaveCount(0);
  // Her messages stay, from a deactivated account.
  await alice.page.reload();
  await alice.page.getByRole("button", { name: `# ${vault}`, exact: true }).click();
  await expect(log(alice.page).getByText("carol was here")).toBeVisible({ timeout: 30_000 });
  await expect(log(alice.page).getByText(`${carol.user.username} (deactivated)`)).toBeVisible();
  // After the reload the one-to-one still ends with her removal (it was this page's own record), and it
  // never offers to let her back in (a list of members a moment old named her).
  await openConversation(alice.page, carol.user.username);
  await expect(log(alice.page).getByText("before, just us")).toBeVisible({ timeout: 30_000 });
  await expect(log(alice.page).locator(".chat-event, article").last()).toHaveText(removed);
  await expect(alice.page.getByRole("button", { name: `Let ${carol.user.username} back in` })).toHaveCount(0);
  await expect(alice.page.getByText(/started this conversation again/)).toHaveCount(0);
  const commits = await su.collection("mls_commits").getFullList({ filter: su.filter("channel = {:c}", { c: vaultId }), sort: "epoch" });
  expect(commits.at(-1)?.sender).toBe(alice.id);

  // The admin's console lists each step in the audit log, and the chain verifies: the owner naming the
  // admin, the deactivation, her sessions ended, her removal from the vault and the direct conversation.
  const audit = await auditLog(admin.page);
  await audit.entries
    .getByRole("button", { name: `Show only the entries of @${admin.user.username}` })
    .first()
    .click();
  await expect(audit.section.getByText(`Only the entries of @${admin.user.username}.`)).toBeVisible();
  await expect(audit.verdict).toHaveText(/^Chain verified: \d+ entr(y|ies)\.$/, { timeout: 20_000 });
  const rows = (code: string, who: string) =>
    audit.entries
      .getByRole("row")
      .filter({ hasText: code })
      .filter({ hasText: `@${who}` });
  await expect(rows("role.changed", owner.user.username)).toHaveCount(1);
  await expect(rows("account.deactivated", carol.user.username)).toHaveCount(1);
  await expect(rows("sessions.revoked", carol.user.username)).toHaveCount(1);
  await expect(rows("member.removed", carol.user.username)).toHaveCount(2);
  // (each names where she was removed from, not the channel's id)
  // (a sealed channel unnamed, as in the console's Channels: its name stays with its members; it was named)
  await expect(rows("member.removed", carol.user.username).filter({ hasText: "From a sealed channel, on deactivation" })).toHaveCount(1);
  await expect(audit.entries.getByText(vault)).toHaveCount(0);
  await expect(rows("member.removed", carol.user.username).filter({ hasText: "From a direct conversation, on deactivation" })).toHaveCount(
    1,
  );
  // One stored row changed through the superuser's API: the console names that entry; put back, it verifies again.
  const step = await su
    .collection("audit_log")
    .getFirstListItem(su.filter("action = 'account.deactivated' && target = {:c}", { c: carol.id }));
  await su.collection("audit_log").update(step.id, { details: { channels: 0 } });
  await auditLog(admin.page);
  await expect(audit.verdict).toHaveText(`Broken at entry ${step.seq}: it was changed or removed after it was written.`);
  await su.collection("audit_log").update(step.id, { details: step.details });
  await auditLog(admin.page);
  await expect(audit.verdict).toHaveText(/^Chain verified: \d+ entr(y|ies)\.$/);

  // Reactivated, she signs in again, to no channels and no conversations. Alice's one-to-one with her,
  // open at the time, says at once what it is now, with its box back (it kept "... was deactivated by an
  // administrator ..." and no box until a reload).
  await openConversation(alice.page, carol.user.username);
  const deactivatedNote = alice.page.getByText(
    `${carol.user.username} was deactivated by an administrator: nothing written here can reach them.`,
  );
  await expect(deactivatedNote).toBeVisible({ timeout: 30_000 });
  await changeStatus(admin.page, carol.user.username, "reactivate");
  await expect(deactivatedNote).toHaveCount(0, { timeout: 20_000 });
  await expect(
    alice.page.getByText(`${carol.user.username} is no longer in this conversation: what you write waits here until they start it again.`),
  ).toBeVisible();
  await expect(alice.page.getByLabel("Message", { exact: true })).toBeVisible();
  const replay = await browser.newContext({ baseURL: BASE, storageState: saved });
  const page = await replay.newPage();
  await signIn(page, carol.user);
  await expect(page.getByText(`@${carol.user.username}`)).toBeAttached({ timeout: 20_000 });
  await expect(page.getByRole("button", { name: /^[#@] / })).toHaveCount(0);

  // Her device state from before reads none of it, even when a malicious server makes her a member again.
  const profile = await su.collection("profiles").getOne(carol.id);
  const dm = await su.collection("channels").getFirstListItem(su.filter("direct = true && created_by = {:a}", { a: alice.id }));
  for (const channel of [vaultId, dm.id])
    await su.collection("channel_members").create({ channel, user: carol.id, ecdh_public_key: profile.ecdh_public_key });
  await page.reload();
  await page.getByRole("button", { name: `# ${vault}`, exact: true }).click();
  await expect(page.getByText(/no longer a member of this sealed channel/)).toBeVisible({ timeout: 30_000 });
  await expect(log(page).getByText(`after, in the vault ${tag}`)).toHaveCount(0);
  await page.getByRole("button", { name: `@ ${alice.user.username}`, exact: true }).click();
  // (a member again on the server, not on the list: only Alice's page can let her in, ADR 0098)
  await expect(page.getByText(`Waiting for ${alice.user.username} to let you back into this conversation.`)).toBeVisible({
    timeout: 30_000,
  });
  await replay.close();
});

test("a deactivated person's devices leave a sealed channel and a direct conversation when the first member opens them later", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const admin = await administrator(browser, "admin");
  const alice = await person(browser, "alice");
  const carol = await person(browser, "carol");
  const tag = randomBytes(3).toString("hex");
  const vault = `Later ${tag}`;
  const vaultId = await createSealed(alice.page, vault, `later-${tag}`);
  await joinAndOpen(carol.page, vaultId, `later-${tag}`, vault);
  await keyPackagesSent(carol);
  await startConversation(alice.page, [carol.user.username]);
  await waitLive(alice.page);
  const dm = await su.collection("channels").getFirstListItem(su.filter("direct = true && created_by = {:a}", { a: alice.id }));
  const epochOf = async (channel: string) =>
    (await su.collection("mls_groups").getFirstListItem(su.filter("channel = {:c}", { c: channel }))).epoch as number;
  const before = { vault: await epochOf(vaultId), dm: await epochOf(dm.id) };

  // Nobody who shares them is online when the admin deactivates Carol.
  await alice.page.close();
  await openConsole(admin.page);
  await changeStatus(admin.page, carol.user.username, "deactivate");
  await expect(carol.page.getByText(DEACTIVATED)).toBeVisible({ timeout: 5_000 });
  expect(await epochOf(vaultId)).toBe(before.vault);
  expect(await epochOf(dm.id)).toBe(before.dm);

  // Alice opens her device again, and each conversation: her page removes Carol's devices, and says so.
  const page = await alice.context.newPage();
  await page.goto("/");
  const removed = `${carol.user.username} was removed by an administrator`;
  await page.getByRole("button", { name: `# ${vault}`, exact: true }).click();
  await expect(page.getByText(removed)).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => epochOf(vaultId), { timeout: 30_000 }).toBeGreaterThan(before.vault);
  await openConversation(page, carol.user.username);
  await expect(page.getByText(removed)).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => epochOf(dm.id), { timeout: 30_000 }).toBeGreaterThanOrEqual(before.dm + 2);
});
