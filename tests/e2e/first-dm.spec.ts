import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, newUser, test } from "./fixtures";
import { colleague, createChannel, copyInviteLink, message, openConversation, person, send, waitLive, type Person } from "./helpers";

// A conversation's first message reaches everyone (ADR 0047), with the settings `npm start` uses: a
// new account's device sends its key packages during sign-up, so a conversation started a second
// later adds it with a Welcome, whether its page is open or not. The newcomers are Alice's new
// colleagues: they sign up through her team channel's invite link and land in it, so her DMs reach
// them at once (ADR 0052; a stranger's would be a request, tests/e2e/requests.spec.ts). "Signed up"
// below is the moment both are in the channel: sign-up and the invite's join.

// A direct conversation never says "sealed channel" (ADR 50): its own words for what a device cannot read.
const NOT_READABLE = "Messages sent before this device joined the conversation cannot be read here.";

/**
 * "New message": each person looked up by exact username (Alice's picker was listed before her
 * colleagues joined), then started. Answers when Start was clicked.
 */
async function startWith(page: Page, people: Person[], name?: string, typed?: string): Promise<number> {
  const dialog = page.getByRole("dialog", { name: "New message" });
  if (!typed && !(await dialog.isVisible())) await page.getByRole("button", { name: "New message" }).click();
  for (const p of people) {
    // (the first name may be typed already: Alice was told it before the sign-up ended)
    if (p.user.username !== typed) await dialog.getByLabel("Find by username").fill(p.user.username);
    await dialog.getByLabel("Find by username").press("Enter");
    await expect(dialog.getByRole("checkbox", { name: p.user.username })).toBeChecked();
  }
  if (name) await dialog.getByLabel("Conversation name (optional)").fill(name);
  const clicked = Date.now();
  await dialog.getByRole("button", { name: "Start conversation" }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  return clicked;
}

/** Sends from the open conversation; answers when the message is shown sent. */
async function sendShown(page: Page, text: string): Promise<number> {
  await send(page, text);
  await expect(message(page, text)).toBeVisible();
  return Date.now();
}

/** Opens the conversation and reads these messages, with nothing marked unreadable. */
async function reads(page: Page, title: string, texts: string[]) {
  await openConversation(page, title);
  for (const text of texts) await expect(message(page, text)).toBeVisible({ timeout: 5_000 });
  await expect(page.getByText(NOT_READABLE)).toHaveCount(0);
  await expect(page.getByText("No messages yet. Say hello.")).toHaveCount(0);
}

const TEAM = "Team";

/** Alice's team channel, and its invite link. */
async function teamLink(alice: Person) {
  await createChannel(alice.page, TEAM, `team-${Date.now()}`);
  return copyInviteLink(alice.page);
}

/**
 * Bob and Carol sign up at once through the team's invite link, while Alice has "New message" open with Bob's username typed (she was
 * told it); answers when both workspaces are shown and their recovery-key offers dismissed.
 */
async function newcomers(alice: Person) {
  const browser = alice.page.context().browser()!;
  const [bobUser, carolUser] = [newUser("bob"), newUser("carol")];
  const link = await teamLink(alice);
  const signingUp = Promise.all([colleague(browser, "bob", link, TEAM, bobUser), colleague(browser, "carol", link, TEAM, carolUser)]);
  await alice.page.getByRole("button", { name: "New message" }).click();
  await alice.page.getByRole("dialog", { name: "New message" }).getByLabel("Find by username").fill(bobUser.username);
  const [bob, carol] = await signingUp;
  return { bob, carol, signedUp: Date.now() };
}

/** Alice starts a conversation with these people and sends its first message; answers when it was started and sent. */
async function first(alice: Person, people: Person[], text: string, signedUp: number, typed?: string) {
  const started = await startWith(alice.page, people, people.length > 1 ? "Newcomers" : undefined, typed);
  await waitLive(alice.page);
  const sent = await sendShown(alice.page, text);
  console.log(
    `${people.length > 1 ? "group" : "one-to-one"} started ${started - signedUp} ms after the sign-ups, sent after ${sent - signedUp} ms`,
  );
  return { started, sent };
}

test("a conversation started a second after the other's sign-up: both newcomers read every message at once", async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const { bob, carol, signedUp } = await newcomers(alice);
  const oneToOne = await first(alice, [bob], "welcome aboard, bob", signedUp, bob.user.username);
  // (started as soon as Alice can click: about a second, more on a busy machine; the app waits for nothing)
  expect(oneToOne.started - signedUp).toBeLessThan(3_000);
  // Bob opens it while Alice starts the group.
  const bobRead = reads(bob.page, alice.user.username, ["welcome aboard, bob"]).then(() => Date.now() - oneToOne.sent);
  const group = await first(alice, [bob, carol], "welcome, both of you", signedUp);
  const oneToOneRead = await bobRead;
  await Promise.all([reads(bob.page, "Newcomers", ["welcome, both of you"]), reads(carol.page, "Newcomers", ["welcome, both of you"])]);
  const groupRead = Date.now() - group.sent;
  console.log(`read ${oneToOneRead} ms (one-to-one) and ${groupRead} ms (group, both) after sending`);
  expect(oneToOneRead).toBeLessThan(5_000);
  expect(groupRead).toBeLessThan(5_000);

  // And they answer: everyone reads everyone.
  await send(carol.page, "thanks alice");
  for (const page of [alice.page, bob.page]) await expect(message(page, "thanks alice")).toBeVisible({ timeout: 5_000 });
});

test("a newcomer whose page is closed after sign-up reads the first messages when she opens it a minute later", async ({ browser }) => {
  test.setTimeout(240_000);
  const alice = await person(browser, "alice");
  const { bob, carol, signedUp } = await newcomers(alice);
  // Carol closes her page at once, while Alice starts the one-to-one with Bob; then the group with both.
  const [oneToOne, closed] = await Promise.all([
    first(alice, [bob], "welcome aboard, bob", signedUp, bob.user.username),
    carol.page.close().then(() => Date.now()),
  ]);
  // (started as soon as Alice can click: about a second, more on a busy machine; the app waits for nothing)
  expect(oneToOne.started - signedUp).toBeLessThan(3_000);
  const bobRead = reads(bob.page, alice.user.username, ["welcome aboard, bob"]).then(() => Date.now() - oneToOne.sent);
  const group = await first(alice, [bob, carol], "welcome, both of you", signedUp);
  expect(await bobRead).toBeLessThan(5_000);
  await reads(bob.page, "Newcomers", ["welcome, both of you"]);
  expect(Date.now() - group.sent).toBeLessThan(5_000);
  await send(bob.page, "bob says hi while carol is away");
  await expect(message(alice.page, "bob says hi while carol is away")).toBeVisible({ timeout: 5_000 });

  // The scenario itself: Carol comes back a minute after she closed her page.
  await alice.page.waitForTimeout(Math.max(0, 60_000 - (Date.now() - closed)));
  const page = await carol.context.newPage();
  await page.goto("/");
  await reads(page, "Newcomers", ["welcome, both of you", "bob says hi while carol is away"]);
});

test("a conversation with someone none of whose devices has a key package yet waits for their device, then they read from the start", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const dave = await colleague(browser, "dave", await teamLink(alice), TEAM);
  // Dave's page is closed and the server holds no package of his (as for a device still signing up).
  await dave.page.close();
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  for (const record of await admin.collection("mls_key_packages").getFullList({ filter: `user = "${dave.id}"` }))
    await admin.collection("mls_key_packages").delete(record.id);

  await alice.page.getByRole("button", { name: "New message" }).click();
  const dialog = alice.page.getByRole("dialog", { name: "New message" });
  await dialog.getByLabel("Find by username").fill(dave.user.username);
  await dialog.getByLabel("Find by username").press("Enter");
  await expect(dialog.getByRole("checkbox", { name: dave.user.username })).toBeChecked();
  await dialog.getByRole("button", { name: "Start conversation" }).click();
  await expect(dialog.getByRole("status").filter({ hasText: `Waiting for ${dave.user.username}'s device...` })).toBeVisible();

  // Dave opens the app: his device sends packages right after the first paint, and the conversation is made with it.
  const page = await dave.context.newPage();
  await page.goto("/");
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await waitLive(alice.page);
  await sendShown(alice.page, "hello dave, you were waited for");
  await reads(page, alice.user.username, ["hello dave, you were waited for"]);
});
