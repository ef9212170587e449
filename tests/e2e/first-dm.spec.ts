import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, test } from "./fixtures";
import { message, openConversation, person, send, waitLive, type Person } from "./helpers";

// A conversation's first message reaches everyone (ADR 0047), with the settings `npm start` uses: a
// new account's device sends its key packages during sign-up, so a conversation started a second
// later adds it with a Welcome, whether its page is open or not.

const NOT_READABLE = "Messages sent before this device joined the sealed channel cannot be read here.";

/** "New message": each person looked up by exact username (they share no channel), then started. Answers when Start was clicked. */
async function startWith(page: Page, people: Person[], name?: string): Promise<number> {
  const dialog = page.getByRole("dialog", { name: "New message" });
  if (!(await dialog.isVisible())) await page.getByRole("button", { name: "New message" }).click();
  for (const p of people) {
    await dialog.getByLabel("Find by username").fill(p.user.username);
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

/** Bob and Carol sign up at once; Alice, waiting in "New message", starts a one-to-one with Bob right after and sends. */
async function firstOneToOne(alice: Person, afterSignUp: (carol: Person) => Promise<void>) {
  const newcomers = Promise.all([person(alice.page.context().browser()!, "bob"), person(alice.page.context().browser()!, "carol")]);
  await alice.page.getByRole("button", { name: "New message" }).click();
  const [bob, carol] = await newcomers;
  const signedUp = Date.now();
  await afterSignUp(carol);
  const started = await startWith(alice.page, [bob]);
  await waitLive(alice.page);
  const sent = await sendShown(alice.page, "welcome aboard, bob");
  console.log(`one-to-one started ${started - signedUp} ms after the sign-ups, its first message sent after ${sent - signedUp} ms`);
  return { bob, carol, signedUp, started, sent };
}

/** Alice starts a group with both and sends its first message. */
async function firstGroup(alice: Person, bob: Person, carol: Person, signedUp: number) {
  const started = await startWith(alice.page, [bob, carol], "Newcomers");
  await waitLive(alice.page);
  const sent = await sendShown(alice.page, "welcome, both of you");
  console.log(`group started ${started - signedUp} ms after the sign-ups, its first message sent after ${sent - signedUp} ms`);
  return sent;
}

test("a conversation started a second after the other's sign-up: both newcomers read every message at once", async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const { bob, carol, signedUp, started, sent } = await firstOneToOne(alice, async () => {});
  expect(started - signedUp).toBeLessThan(1_000);
  // Bob opens it while Alice starts the group.
  const bobRead = reads(bob.page, alice.user.username, ["welcome aboard, bob"]).then(() => Date.now() - sent);
  const groupSent = await firstGroup(alice, bob, carol, signedUp);
  const oneToOneRead = await bobRead;
  await Promise.all([reads(bob.page, "Newcomers", ["welcome, both of you"]), reads(carol.page, "Newcomers", ["welcome, both of you"])]);
  const groupRead = Date.now() - groupSent;
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
  let closed = 0;
  const { bob, carol, signedUp, started } = await firstOneToOne(alice, async (carol) => {
    await carol.page.close();
    closed = Date.now();
  });
  expect(started - signedUp).toBeLessThan(1_000);
  await firstGroup(alice, bob, carol, signedUp);
  await reads(bob.page, "Newcomers", ["welcome, both of you"]);
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
  const dave = await person(browser, "dave");
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
