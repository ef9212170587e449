import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, filesContaining, signIn, signOut, test } from "./fixtures";
import {
  createChannel,
  joinAndOpen,
  keyPackagesSent,
  log,
  message,
  openConversation,
  person,
  send,
  startConversation,
  waitLive,
  type Person,
} from "./helpers";
import { sendFile } from "./send-file";
import { openDetail } from "./header-helpers";
import { browserStorage } from "./storage-helpers";

// Direct messages (ADR 19): one-to-one and group conversations over MLS, with no password.

/** The security code in the participants panel (opened, read, closed). */
async function securityCode(page: Page): Promise<string> {
  await openDetail(page, "Participants");
  // A direct conversation is never called a channel: its people are participants (ADR 0050).
  const panel = page.getByRole("complementary", { name: "Participants" });
  await expect(panel.getByRole("heading", { name: /^Participants \(\d+\)$/ })).toBeVisible();
  const code = panel.getByRole("region", { name: "Conversation security" }).locator(".sealed-code");
  await expect(code).toHaveText(/^\d{5} \d{5}$/);
  await expect(panel.getByText(/channel/i)).toHaveCount(0);
  const text = await code.innerText();
  await page.getByRole("button", { name: "Close participants" }).click();
  return text;
}

test("direct messages: a one-to-one without a password, live, with a file and a reaction; a second device; a group that one leaves", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const carol = await person(browser, "carol");
  // They share a channel: the picker offers them to each other.
  const password = `team-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Team", password);
  await joinAndOpen(bob.page, channelId, password, "Team");
  await joinAndOpen(carol.page, channelId, password, "Team");
  for (const p of [bob, carol]) await keyPackagesSent(p);

  await startConversation(alice.page, [bob.user.username]);
  await expect(alice.page.getByRole("heading", { name: `@ ${bob.user.username}` })).toBeVisible();
  await expect(alice.page.getByText(`Direct message with ${alice.user.username}, ${bob.user.username}`)).toBeVisible();
  await waitLive(alice.page);
  await openConversation(bob.page, alice.user.username);

  const canary = `dm-canary-${Date.now()}`;
  await send(alice.page, `hi bob ${canary}`);
  await expect(log(bob.page).getByText(`hi bob ${canary}`)).toBeVisible({ timeout: 20_000 });
  await send(bob.page, "hi alice");
  await expect(log(alice.page).getByText("hi alice")).toBeVisible({ timeout: 20_000 });
  // Created the MLS way: Alice's device added Bob's from his key package with a Welcome; his device
  // committed nothing to join.
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const dm = await admin.collection("channels").getFirstListItem(`direct = true && created_by = "${alice.id}"`);
  expect((await admin.collection("mls_welcomes").getFullList({ filter: `channel = "${dm.id}"` })).length).toBe(1);
  expect((await admin.collection("mls_commits").getFullList({ filter: `channel = "${dm.id}" && sender = "${bob.id}"` })).length).toBe(0);

  // A file and a reaction.
  const fileName = `dm-notes-${Date.now()}.txt`;
  await sendFile(bob.page, { name: fileName, mimeType: "text/plain", buffer: Buffer.from(`file ${canary}`) });
  await expect(log(alice.page).getByText(fileName)).toBeVisible({ timeout: 30_000 });
  const [saved] = await Promise.all([
    alice.page.waitForEvent("download"),
    log(alice.page)
      .getByRole("button", { name: `Download ${fileName}` })
      .click(),
  ]);
  expect(saved.suggestedFilename()).toBe(fileName);
  const hi = message(alice.page, "hi alice");
  await hi.hover();
  await hi.getByRole("button", { name: "React" }).click();
  await alice.page.getByRole("menuitem", { name: "🎉" }).click();
  await expect(message(bob.page, "hi alice").getByRole("button", { name: "🎉 1" })).toBeVisible({ timeout: 20_000 });
  // A pin, like a reaction, is an encrypted event of the conversation.
  await hi.getByRole("button", { name: "More" }).click();
  await alice.page.getByRole("menuitem", { name: "Pin message" }).click();
  await expect(message(bob.page, "hi alice").getByText(`Pinned by ${alice.user.username}`)).toBeVisible({ timeout: 20_000 });
  // A thread of three replies: the conversation shows the root with its count, never the replies.
  await hi.getByRole("button", { name: "More" }).click();
  await alice.page.getByRole("menuitem", { name: "Reply in thread" }).click();
  const thread = alice.page.getByRole("complementary", { name: "Thread" });
  for (const n of [1, 2, 3]) {
    await thread.getByLabel("Reply in thread").fill(`dm thread reply ${n}`);
    await thread.getByRole("button", { name: "Send reply" }).click();
    await expect(thread.getByRole("list", { name: "Replies" }).getByText(`dm thread reply ${n}`)).toBeVisible({ timeout: 20_000 });
  }
  await expect(message(bob.page, "hi alice").getByRole("button", { name: "3 replies: open the thread" })).toBeVisible({ timeout: 20_000 });
  await expect(log(bob.page).getByText("dm thread reply 2")).toHaveCount(0);
  await thread.getByRole("button", { name: "Close thread" }).click();
  expect(await securityCode(alice.page)).toBe(await securityCode(bob.page));

  // Opening a one-to-one again opens the same conversation.
  await startConversation(alice.page, [bob.user.username]);
  await expect(alice.page.getByRole("button", { name: `@ ${bob.user.username}`, exact: true })).toHaveCount(1);
  await expect(log(alice.page).getByText(`hi bob ${canary}`)).toBeVisible();

  // Bob's second device shows what his first one read (his message archive, ADR 0048) and reads from its join on.
  const second = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const secondPage = await second.newPage();
  await signIn(secondPage, bob.user);
  await openConversation(secondPage, alice.user.username);
  await expect(log(secondPage).getByText(`hi bob ${canary}`)).toBeVisible({ timeout: 30_000 });
  await expect(log(secondPage).getByText("hi alice")).toBeVisible();
  await send(alice.page, "welcome, second device");
  await expect(log(secondPage).getByText("welcome, second device")).toBeVisible({ timeout: 20_000 });
  await expect(log(bob.page).getByText("welcome, second device")).toBeVisible({ timeout: 20_000 });
  await second.close();

  // Recovery: Bob's device loses its MLS state; it joins again as a listed participant, says so, keeps
  // what it had read, and reads what comes next.
  await bob.page.evaluate(({ userId, channel }) => localStorage.removeItem(`chatcrypt.sealed.${userId}.${channel}`), {
    userId: bob.id,
    channel: dm.id,
  });
  await bob.page.reload();
  await openConversation(bob.page, alice.user.username);
  await expect(bob.page.getByText("This device rejoined the conversation")).toBeVisible({ timeout: 30_000 });
  await expect(bob.page.getByRole("main").getByText(/channel/i)).toHaveCount(0);
  await expect(log(bob.page).getByText(`hi bob ${canary}`)).toBeVisible();
  await send(alice.page, "after bob's rejoin");
  await expect(log(bob.page).getByText("after bob's rejoin")).toBeVisible({ timeout: 20_000 });

  // A group with Carol, named: the name lives inside the group (ADR 0050), and the others' pages call
  // it by it once they have read it there.
  const trioName = `Trio ${canary}`;
  await startConversation(alice.page, [bob.user.username, carol.user.username], trioName);
  await expect(alice.page.getByRole("heading", { name: `@ ${trioName}` })).toBeVisible();
  await waitLive(alice.page);
  await openConversation(bob.page, trioName);
  await openConversation(carol.page, trioName);
  await send(carol.page, "carol in the group");
  for (const p of [alice, bob]) await expect(log(p.page).getByText("carol in the group")).toBeVisible({ timeout: 20_000 });
  const withCarol = await securityCode(alice.page);

  // Carol leaves: the others' pages remove her devices from the group, and she decrypts nothing sent after.
  await carol.page.getByRole("button", { name: `Leave ${trioName}` }).click();
  await carol.page.getByRole("dialog", { name: "Leave Conversation" }).getByRole("button", { name: "Leave" }).click();
  await expect(carol.page.getByRole("button", { name: `@ ${trioName}` })).toHaveCount(0);
  await expect(log(bob.page).getByText(`${carol.user.username} left the conversation`)).toBeVisible({ timeout: 20_000 });
  await openDetail(alice.page, "Participants");
  await expect(alice.page.getByRole("complementary", { name: "Participants" }).getByText(`@${carol.user.username}`)).toHaveCount(0, {
    timeout: 20_000,
  });
  await alice.page.getByRole("button", { name: "Close participants" }).click();
  await expect.poll(() => securityCode(alice.page), { timeout: 30_000 }).not.toBe(withCarol);
  const secret = `after carol left ${canary}`;
  await send(alice.page, secret);
  await expect(log(bob.page).getByText(secret)).toBeVisible({ timeout: 20_000 });
  // Alice's page, open since she made the group, knew Carol's devices: no alarm about a device put in
  // without a participant (it was raised as Carol left).
  await expect(alice.page.getByText(/was put into this conversation without a participant adding them/)).toHaveCount(0);
  // Even when a malicious server makes her a member again, her page reads none of it.
  // The server keeps no name of it: only one sealed under a key of the group's epoch.
  const trio = await admin.collection("channels").getFirstListItem(`direct = true && direct_key = "" && created_by = "${alice.id}"`);
  expect(trio.name).toBe("");
  expect(trio.sealed_name).toMatch(/^\d+\.[A-Za-z0-9_-]+$/);
  const carolProfile = await admin.collection("profiles").getOne(carol.id);
  await admin.collection("channel_members").create({ channel: trio.id, user: carol.id, ecdh_public_key: carolProfile.ecdh_public_key });
  await carol.page.reload();
  await carol.page.getByRole("button", { name: `@ ${trioName}` }).click();
  await expect(log(carol.page).getByText("carol in the group")).toBeVisible({ timeout: 30_000 });
  await expect(carol.page.getByText(/no longer a participant in this conversation/)).toBeVisible({ timeout: 30_000 });
  await expect(log(carol.page).getByText(secret)).toHaveCount(0);

  // Alice adds Dave, whom she shares no channel with, found by his exact username: he is asked first
  // (ADR 0052), accepts, reads from his join on, and the conversation says so.
  // (her contacts answer slowly: someone looked up meanwhile is offered at once; it said "Loading people..."
  // under "dave added.", with nobody to see)
  const dave = await person(browser, "dave");
  let answer = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await alice.page.route("**/api/people", async (route) => {
    // (the list; a look-up goes to the same address with POST)
    if (route.request().method() === "GET") await answered;
    await route.continue();
  });
  await openDetail(alice.page, "Invite people");
  const add = alice.page.getByRole("dialog", { name: "Add people" });
  await expect(add.getByText("Loading people...")).toBeVisible();
  await add.getByLabel("Find by username").fill(dave.user.username);
  await add.getByRole("button", { name: "Look up" }).click();
  await expect(add.getByText(`${dave.user.username} added.`)).toBeVisible();
  await expect(add.getByRole("checkbox", { name: dave.user.username })).toBeChecked();
  answer();
  await expect(add.getByText("Loading people...")).toHaveCount(0);
  await expect(add.getByRole("checkbox", { name: dave.user.username })).toBeChecked();
  await alice.page.unroute("**/api/people");
  await add.getByRole("button", { name: "Add", exact: true }).click();
  await expect(add).toBeHidden({ timeout: 30_000 });
  const asked = dave.page.getByRole("group", { name: `${alice.user.username} wants to message you` });
  await expect(asked).toBeVisible({ timeout: 20_000 });
  await asked.getByRole("button", { name: "Accept" }).click();
  // Dave's page calls the group by its participants until it has read its name inside the group,
  // which it can once a participant's page has sealed the name for the epoch he joined at.
  // (his only conversation: the participants' names, whoever the server lists, or the name)
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const either = new RegExp(`^@ (${literal(trioName)}|.*${literal(alice.user.username)}.*)$`);
  await expect(dave.page.getByRole("button", { name: either })).toBeVisible({ timeout: 20_000 });
  await dave.page.getByRole("button", { name: either }).click();
  await waitLive(dave.page);
  await expect(log(bob.page).getByText(`${dave.user.username} joined the conversation, added by ${alice.user.username}`)).toBeVisible({
    timeout: 20_000,
  });
  await expect(dave.page.getByText("Messages sent while you were not in the conversation cannot be read.")).toBeVisible({
    timeout: 30_000,
  });
  await send(alice.page, "welcome, dave");
  await expect(log(dave.page).getByText("welcome, dave")).toBeVisible({ timeout: 20_000 });
  await expect(dave.page.getByRole("heading", { name: `@ ${trioName}` })).toBeVisible({ timeout: 30_000 });
  await expect(dave.page.getByRole("button", { name: `@ ${trioName}`, exact: true })).toBeVisible();
  await send(dave.page, "dave here");
  for (const p of [alice, bob]) await expect(log(p.page).getByText("dave here")).toBeVisible({ timeout: 20_000 });
  await expect(log(dave.page).getByText(secret)).toHaveCount(0);

  // Bob leaves the one-to-one; Alice starts it again: Bob is asked again, even though they share a
  // channel (ADR 0052). What she writes meanwhile waits on her device, and once he accepts he is
  // listed in its group again and reads it, and what follows.
  await bob.page.getByRole("button", { name: `Leave ${alice.user.username}`, exact: true }).click();
  await bob.page.getByRole("dialog", { name: "Leave Conversation" }).getByRole("button", { name: "Leave" }).click();
  await expect(bob.page.getByRole("button", { name: `@ ${alice.user.username}`, exact: true })).toHaveCount(0);
  await startConversation(alice.page, [bob.user.username]);
  await expect(alice.page.getByRole("heading", { name: `@ ${bob.user.username}` })).toBeVisible();
  await waitLive(alice.page);
  const waiting = `Waiting for ${bob.user.username} to accept your request`;
  await expect(alice.page.getByRole("status").filter({ hasText: waiting }).first()).toBeVisible({ timeout: 20_000 });
  await send(alice.page, "while bob is away");
  await expect(alice.page.getByRole("list", { name: "Messages not sent yet" })).toContainText(waiting);
  const again = bob.page.getByRole("group", { name: `${alice.user.username} wants to message you` });
  await expect(again).toBeVisible({ timeout: 20_000 });
  await expect(log(bob.page).getByText("while bob is away")).toHaveCount(0);
  await again.getByRole("button", { name: "Accept" }).click();
  await expect(bob.page.getByRole("heading", { name: `@ ${alice.user.username}` })).toBeVisible({ timeout: 20_000 });
  await expect(log(bob.page).getByText("while bob is away")).toBeVisible({ timeout: 30_000 });
  await send(alice.page, "welcome back, bob");
  await expect(log(bob.page).getByText("welcome back, bob")).toBeVisible({ timeout: 30_000 });
  await expect(bob.page.getByText(/was put into this conversation/)).toHaveCount(0);
  await expect(alice.page.getByText(/was put into this conversation/)).toHaveCount(0);

  // Nothing of it in clear on the server or in a signed-out browser.
  const dataDir = process.env.E2E_PB_DATA!;
  for (const needle of [canary, fileName, trioName]) {
    expect(filesContaining([dataDir], needle)).toEqual([]);
    expect(filesContaining([process.env.E2E_LOG_DIR!], needle)).toEqual([]);
  }
  await signOut(bob.page);
  const stored = await browserStorage(bob.page);
  // The conversation's read messages are kept on the device (sealed): they were looked at too.
  expect(stored).toContain("database chatcrypt_sealed");
  for (const needle of [canary, fileName, "hi alice", "dave here"]) expect(stored).not.toContain(needle);
  for (const p of [alice, bob, carol, dave] as Person[]) await p.context.close();
});
