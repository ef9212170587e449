import { superuserClient } from "../integration/pocketbase";
import { expect, filesContaining, test } from "./fixtures";
import { createChannel, joinAndOpen, log, message, person, send, waitLive } from "./helpers";
import { openDetail } from "./header-helpers";

/** The message whose own text (not a quote of it) contains `text`. */

test("unread counts, the New messages divider and the tab title", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `unread-${Date.now()}`;
  const other = await createChannel(alice.page, "Quiet Room", password);
  const team = await createChannel(alice.page, "Team Room", password);
  await joinAndOpen(bob.page, other, password, "Quiet Room");
  await joinAndOpen(bob.page, team, password, "Team Room");
  await alice.page.getByRole("button", { name: "# Quiet Room", exact: true }).click();
  await waitLive(alice.page);

  await send(alice.page, "first unread");
  await send(alice.page, `hello @${bob.user.username}, a question`);
  const row = bob.page.getByRole("navigation", { name: "Channels" }).getByRole("listitem").filter({ hasText: "Quiet Room" });
  await expect(row.getByRole("img", { name: "2 unread" })).toBeVisible();
  await expect(row.getByRole("img", { name: "1 mention" })).toBeVisible();
  await expect(bob.page).toHaveTitle("(2) Team Room · ChatCrypt");

  // The counts follow Bob to a reload (they are kept on the server).
  await bob.page.reload();
  await expect(row.getByRole("img", { name: "2 unread" })).toBeVisible();
  await expect(row.getByRole("img", { name: "1 mention" })).toBeVisible();

  await bob.page.getByRole("button", { name: "# Quiet Room", exact: true }).click();
  await expect(log(bob.page).getByRole("separator", { name: "New messages" })).toBeVisible();
  await expect(row.getByRole("img", { name: /unread/ })).toHaveCount(0);
  await expect(bob.page).toHaveTitle("Quiet Room · ChatCrypt");
  await expect(log(bob.page).locator("mark.mention-own")).toHaveText(`@${bob.user.username}`);
  await alice.context.close();
  await bob.context.close();
});

test("edit, delete, reply and react show live on the other screen and survive a reload; forged edits are ignored", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `team-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Crew", password);
  await joinAndOpen(bob.page, channelId, password, "Crew");
  await waitLive(alice.page);

  await send(alice.page, "first draft of the plan");
  await send(alice.page, "this one goes away");
  await send(bob.page, "bob's own note");
  await expect(message(alice.page, "bob's own note")).toBeVisible();
  const editedCanary = `final plan ${Date.now().toString(36)}`;

  // Edit (Alice's own message): replaced live on Bob's screen, marked (edited).
  const draft = message(alice.page, "first draft of the plan");
  await draft.hover();
  await draft.getByRole("button", { name: "Edit" }).click();
  const box = alice.page.getByLabel("Edit message");
  await box.fill(editedCanary);
  await box.press("Enter");
  await expect(message(bob.page, editedCanary)).toContainText("(edited)");
  await expect(message(bob.page, "first draft of the plan")).toHaveCount(0);

  // Delete (with a confirmation): gone on Bob's screen live.
  const doomed = message(alice.page, "this one goes away");
  await doomed.hover();
  await doomed.getByRole("button", { name: "Delete" }).click();
  await alice.page.getByRole("dialog", { name: "Delete Message" }).getByRole("button", { name: "Delete" }).click();
  await expect(message(bob.page, "this one goes away")).toHaveCount(0);

  // Reply (Bob to Alice's edited message): the quote names the sender and the first line.
  const planOnBob = message(bob.page, editedCanary);
  await planOnBob.hover();
  await planOnBob.getByRole("button", { name: "Reply" }).click();
  await expect(bob.page.getByText(`Replying to ${alice.user.username}`)).toBeVisible();
  // the typing goes on in the message box (focus stayed on Reply)
  await expect(bob.page.getByLabel("Message", { exact: true })).toBeFocused();
  await send(bob.page, "agreed, shipping it");
  const reply = message(alice.page, "agreed, shipping it");
  await expect(reply.getByRole("button", { name: new RegExp(`${alice.user.username}|You`) })).toContainText(editedCanary);

  // React (Bob): counts on Alice's screen live; Bob's own highlighted; clicking it again removes it.
  await planOnBob.hover();
  await planOnBob.getByRole("button", { name: "React" }).click();
  await bob.page.getByRole("menuitem", { name: "🎉" }).click();
  await expect(message(alice.page, editedCanary).getByRole("button", { name: "🎉 1" })).toBeVisible();
  await expect(planOnBob.getByRole("button", { name: "🎉 1: You reacted with 🎉" })).toHaveAttribute("aria-pressed", "true");

  // All of it survives a reload.
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Crew", exact: true }).click();
  await expect(message(alice.page, editedCanary)).toContainText("(edited)");
  await expect(message(alice.page, editedCanary).getByRole("button", { name: "🎉 1" })).toBeVisible();
  await expect(message(alice.page, "this one goes away")).toHaveCount(0);
  await expect(message(alice.page, "agreed, shipping it").getByRole("button", { name: /shipping|final plan/ })).toContainText(editedCanary);

  // A malicious server (a superuser) slips in edits of Alice's message: a copy of Bob's own edit, and
  // Bob's envelope claimed as Alice's. Neither is shown.
  const bobsNote = message(bob.page, "bob's own note");
  await bobsNote.hover();
  await bobsNote.getByRole("button", { name: "Edit" }).click();
  await bob.page.getByLabel("Edit message").fill("bob's note, edited");
  await bob.page.getByLabel("Edit message").press("Enter");
  await expect(message(alice.page, "bob's note, edited")).toBeVisible();
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const records = await admin
    .collection("messages")
    .getFullList({ filter: admin.filter("channel = {:c}", { c: channelId }), sort: "created" });
  const bobsEdit = records.find((r) => r.kind === "edit" && r.sender === bob.id)!;
  const alicesPlan = records.find((r) => r.kind === "" && r.sender === alice.id)!;
  await admin
    .collection("messages")
    .create({ channel: channelId, sender: bob.id, kind: "edit", target: alicesPlan.id, encrypted_content: bobsEdit.encrypted_content });
  await admin
    .collection("messages")
    .create({ channel: channelId, sender: alice.id, kind: "edit", target: alicesPlan.id, encrypted_content: bobsEdit.encrypted_content });
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Crew", exact: true }).click();
  await expect(message(alice.page, editedCanary)).toBeVisible();
  await expect(log(alice.page).getByText("bob's note, edited")).toHaveCount(1);

  // Canary: neither the edited text nor the emoji is in the data directory in plain text.
  const dataDir = process.env.E2E_PB_DATA!;
  expect(filesContaining([dataDir], editedCanary)).toEqual([]);
  // (the emoji is four bytes, which an encrypted upload of another test, random bytes megabytes long,
  // may hold by chance: those files are left out of that search)
  expect(filesContaining([dataDir], "🎉").filter((path) => !/\/encrypted_[^/]+\.bin$/.test(path))).toEqual([]);

  // Bob takes his reaction back.
  await planOnBob.getByRole("button", { name: "🎉 1: You reacted with 🎉" }).click();
  await expect(message(alice.page, editedCanary).getByRole("button", { name: /🎉/ })).toHaveCount(0);
  await alice.context.close();
  await bob.context.close();
});

test("members panel: the creator is marked and removes a member, who loses the channel at once", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const carol = await person(browser, "carol");
  const password = `members-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Board", password);
  await openDetail(alice.page, "Members");
  const panel = alice.page.getByRole("complementary", { name: "Members" });
  await expect(panel.getByRole("heading", { name: "Members (1)" })).toBeVisible();
  // Carol joins: she appears in Alice's open panel live.
  await joinAndOpen(carol.page, channelId, password, "Board");
  await expect(panel.getByText(`@${carol.user.username}`)).toBeVisible();
  await expect(panel.getByRole("listitem").filter({ hasText: alice.user.username })).toContainText("creator");

  // Mention suggestions offer members after "@".
  const composer = alice.page.getByLabel("Message", { exact: true });
  await composer.fill(`hi @${carol.user.username.slice(0, 4)}`);
  await alice.page.getByRole("listbox", { name: "Mention a member" }).getByRole("option").first().click();
  await expect(composer).toHaveValue(`hi @${carol.user.username} `);

  await panel.getByRole("button", { name: `Remove ${carol.user.username}` }).click();
  await alice.page.getByRole("dialog", { name: "Remove Member" }).getByRole("button", { name: "Remove" }).click();
  await expect(panel.getByText(`@${carol.user.username}`)).toHaveCount(0);
  await expect(carol.page.getByRole("button", { name: "# Board", exact: true })).toHaveCount(0);
  await alice.context.close();
  await carol.context.close();
});
