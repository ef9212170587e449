import type { Browser } from "@playwright/test";
import { administrator, changeStatus, openConsole } from "./admin-helpers";
import { expect, newUser, signIn, test } from "./fixtures";
import {
  createChannel,
  joinAndOpen,
  keyPackagesSent,
  log,
  openConversation,
  person,
  send,
  startConversation,
  waitLive,
  type Person,
} from "./helpers";

// A one-to-one whose other person left it, or was deactivated and reactivated, and who starts it again
// (ADR 0098). The server makes them a member at once, but only a participant's page can put them back on
// the conversation's list: they were shut out for good ("You are no longer a participant...", their
// messages never sent). Now their page says what it waits for, and the other person lets them back in.

const waitingFor = (name: string) => `Waiting for ${name} to let you back into this conversation.`;
const startedAgain = (name: string) =>
  `${name} started this conversation again: nothing written here reaches them until you let them back in.`;

/** Alice and someone who share a channel, in a one-to-one Alice started, each having read the other. */
async function pair(alice: Person, other: Person) {
  const password = `team-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Team", password);
  await joinAndOpen(other.page, channelId, password, "Team");
  await keyPackagesSent(other);
  await startConversation(alice.page, [other.user.username]);
  await waitLive(alice.page);
  await openConversation(other.page, alice.user.username);
  await send(alice.page, "first from alice");
  await expect(log(other.page).getByText("first from alice")).toBeVisible({ timeout: 30_000 });
}

/** Alice and Bob, paired as above. */
async function aliceAndBob(browser: Browser) {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  await pair(alice, bob);
  return { alice, bob };
}

/** Leaves the one-to-one with `name` from the sidebar. */
async function leave(who: Person, name: string) {
  await who.page.getByRole("button", { name: `Leave ${name}` }).click();
  await who.page.getByRole("dialog", { name: "Leave Conversation" }).getByRole("button", { name: "Leave" }).click();
}

/** Alice lets `name` back in from the conversation's notice; it goes once they are on the list. */
async function letBackIn(alice: Person, name: string) {
  await expect(alice.page.getByText(startedAgain(name))).toBeVisible({ timeout: 30_000 });
  const back = alice.page.getByRole("button", { name: `Let ${name} back in` });
  await back.click();
  await expect(back).toHaveCount(0, { timeout: 30_000 });
}

test("Bob leaves a one-to-one and starts it again while Alice looks elsewhere: he waits, she lets him back in, and they write both ways", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { alice, bob } = await aliceAndBob(browser);
  // (Alice looks at another conversation: nobody removes Bob's device from the group when he leaves)
  await alice.page.getByRole("button", { name: "# Team", exact: true }).click();
  await leave(bob, alice.user.username);
  await expect(bob.page.getByRole("button", { name: `@ ${alice.user.username}`, exact: true })).toHaveCount(0);

  await startConversation(bob.page, [alice.user.username]);
  await expect(bob.page.getByText(waitingFor(alice.user.username)).first()).toBeVisible({ timeout: 30_000 });
  // What he writes meanwhile waits on his device (nobody reads it yet), and goes once he is back in.
  await send(bob.page, "written while waiting");

  // The server alone never puts him back: Alice's pages ask her, a new device of hers too.
  const tablet = await (await browser.newContext()).newPage();
  await signIn(tablet, alice.user);
  await openConversation(tablet, bob.user.username);
  await expect(tablet.getByText(startedAgain(bob.user.username))).toBeVisible({ timeout: 30_000 });
  await openConversation(alice.page, bob.user.username);
  await expect(log(alice.page).getByText("written while waiting")).toHaveCount(0);
  // What she writes before letting him back waits on her page, which says for what; it goes once he is in.
  await send(alice.page, "before he is let back");
  await expect(alice.page.getByRole("list", { name: "Messages not sent yet" })).toContainText(
    `Waiting for you to let ${bob.user.username} back in.`,
  );
  await letBackIn(alice, bob.user.username);
  // (the typing goes on in the message box; her tablet no longer asks)
  await expect(alice.page.getByLabel("Message", { exact: true })).toBeFocused();
  await expect(tablet.getByText(startedAgain(bob.user.username))).toHaveCount(0, { timeout: 30_000 });
  await expect(alice.page.getByText(`Direct message with ${alice.user.username}, ${bob.user.username}`)).toBeVisible({ timeout: 30_000 });

  await expect(bob.page.getByText(waitingFor(alice.user.username))).toHaveCount(0, { timeout: 60_000 });
  await expect(log(alice.page).getByText("written while waiting")).toBeVisible({ timeout: 30_000 });
  await expect(log(bob.page).getByText("before he is let back")).toBeVisible({ timeout: 30_000 });
  await send(alice.page, "welcome back");
  await expect(log(bob.page).getByText("welcome back")).toBeVisible({ timeout: 30_000 });
  await send(bob.page, "bob is back");
  await expect(log(alice.page).getByText("bob is back")).toBeVisible({ timeout: 30_000 });
  await expect(log(tablet).getByText("bob is back")).toBeVisible({ timeout: 30_000 });
  await tablet.context().close();
});

test("Bob leaves while Alice reads their one-to-one: she is told he is gone (no request waits), and what she writes reaches him once he is back", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { alice, bob } = await aliceAndBob(browser);
  await leave(bob, alice.user.username);
  const gone = `${bob.user.username} is no longer in this conversation: what you write waits here until they start it again.`;
  await expect(alice.page.getByText(gone)).toBeVisible({ timeout: 30_000 });
  await expect(alice.page.getByText(`Waiting for ${bob.user.username} to accept your request`)).toHaveCount(0);
  await send(alice.page, "written while he was away");
  await expect(alice.page.getByRole("list", { name: "Messages not sent yet" })).toContainText(gone);

  await startConversation(bob.page, [alice.user.username]);
  await expect(bob.page.getByText(waitingFor(alice.user.username)).first()).toBeVisible({ timeout: 30_000 });
  // Until she lets him in he is not in the conversation: no line says he joined, and his typing is not
  // shown (both were, under "... started this conversation again ...").
  const joined = alice.page.getByText(`${bob.user.username} joined the conversation`);
  await expect(alice.page.getByText(startedAgain(bob.user.username))).toBeVisible({ timeout: 30_000 });
  const typingShown = alice.page
    .getByText(`${bob.user.username} is typing`)
    .waitFor({ timeout: 5_000 })
    .then(
      () => true,
      () => false,
    );
  await bob.page.getByLabel("Message", { exact: true }).pressSequentially("typing while I wait", { delay: 50 });
  expect(await typingShown).toBe(false);
  await expect(joined).toHaveCount(0);
  await bob.page.getByLabel("Message", { exact: true }).fill("");
  await letBackIn(alice, bob.user.username);
  await expect(joined).toBeVisible();
  await expect(alice.page.getByText(gone)).toHaveCount(0);
  await expect(log(bob.page).getByText("written while he was away")).toBeVisible({ timeout: 60_000 });
  await send(bob.page, "back again");
  await expect(log(alice.page).getByText("back again")).toBeVisible({ timeout: 30_000 });
});

test("Carol, deactivated and reactivated, starts her one-to-one with Alice again on a new device: Alice lets her back in", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const owner = await administrator(browser, "owner", "owner");
  await openConsole(owner.page);
  const alice = await person(browser, "alice");
  const carol = await person(browser, "carol", undefined, newUser("carol"));
  await pair(alice, carol);

  await changeStatus(owner.page, carol.user.username, "deactivate");
  const gone = `${carol.user.username} was deactivated by an administrator: nothing written here can reach them.`;
  await expect(alice.page.getByText(gone)).toBeVisible({ timeout: 30_000 });
  await changeStatus(owner.page, carol.user.username, "reactivate");
  await carol.context.close();

  // Her new laptop: she finds Alice by name and starts their conversation again.
  const laptop = await browser.newContext();
  const page = await laptop.newPage();
  await signIn(page, carol.user);
  await page.getByRole("button", { name: "New message" }).click();
  const dialog = page.getByRole("dialog", { name: "New message" });
  await dialog.getByLabel("Find by username").fill(alice.user.username);
  await dialog.getByRole("button", { name: "Look up" }).click();
  await dialog.getByRole("checkbox", { name: alice.user.username }).check();
  await dialog.getByRole("button", { name: "Start conversation" }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByText(waitingFor(alice.user.username)).first()).toBeVisible({ timeout: 30_000 });
  await send(page, "carol, written while waiting");

  // Alice's page, open all along, no longer says she was deactivated, and asks to let her back in.
  await letBackIn(alice, carol.user.username);
  await expect(alice.page.getByText(gone)).toHaveCount(0);
  await expect(page.getByText(waitingFor(alice.user.username))).toHaveCount(0, { timeout: 60_000 });
  await expect(log(alice.page).getByText("carol, written while waiting")).toBeVisible({ timeout: 30_000 });
  await send(page, "carol is back");
  await expect(log(alice.page).getByText("carol is back")).toBeVisible({ timeout: 30_000 });
  await send(alice.page, "welcome back, carol");
  await expect(log(page).getByText("welcome back, carol")).toBeVisible({ timeout: 30_000 });
  await laptop.close();
});
