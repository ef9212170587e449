import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send } from "./helpers";
import { article, openThread, reply } from "./thread-helpers";

// What a message's later life does to the places that show it. A thread's panel showed its first
// message as first written, never as edited; it stayed open on a deleted first message with a reply box
// that could never send; the Threads view kept counting the deleted thread's replies; a link preview
// stayed on a message whose link was edited out.

async function edit(page: import("@playwright/test").Page, from: string, to: string) {
  // (by its id: while edited, its text is in the edit box, not in the message)
  const own = page.locator(`[id="${await article(page, from).getAttribute("id")}"]`);
  await own.hover();
  await own.getByRole("button", { name: "Edit", exact: true }).click();
  const box = own.getByLabel("Edit message");
  await box.fill(to);
  await box.press("Enter");
  await expect(log(page).getByText(to)).toBeVisible();
}

test("a thread's panel follows its first message's edit and deletion, and the Threads view forgets the deleted thread", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `after-${Date.now()}`;
  const channelId = await createChannel(alice.page, "After", password);
  await joinAndOpen(bob.page, channelId, password, "After");
  await send(bob.page, "kiwi root message");
  const alicePanel = await openThread(alice.page, "kiwi root message");
  await reply(alicePanel, "alice's reply");
  await alice.page.getByRole("button", { name: "Close thread" }).click();
  const bobPanel = await openThread(bob.page, "kiwi root message");
  await reply(bobPanel, "bob's answer");

  // Bob edits the first message: his open panel and Alice's, opened now, show the edit.
  await edit(bob.page, "kiwi root message", "papaya root message");
  await expect(bobPanel.getByRole("article", { name: /^Thread started by/ })).toContainText("papaya root message");
  const threads = alice.page.getByRole("button", { name: /^Threads/ });
  await expect(threads).toHaveText("Threads (1 unread)", { timeout: 20_000 });
  const again = await openThread(alice.page, "papaya root message");
  await expect(again.getByRole("article", { name: /^Thread started by/ })).toContainText("papaya root message");
  await expect(again.getByText("kiwi root message")).toHaveCount(0);

  // Bob deletes it while Alice's panel is open and she is typing a reply: her panel says so and offers
  // no reply box; what she typed goes to the conversation's message box; her Threads view has nothing
  // unread left.
  const box = again.getByLabel("Reply in thread");
  await box.fill("half-typed reply");
  const root = article(bob.page, "papaya root message");
  await root.hover();
  await root.getByRole("button", { name: "Delete", exact: true }).click();
  await bob.page.getByRole("dialog", { name: "Delete Message" }).getByRole("button", { name: "Delete" }).click();
  await expect(again.getByRole("alert")).toHaveText(
    "The first message of this thread was deleted, and its replies with it. Your reply is in the message box.",
  );
  await expect(again.getByText("alice's reply")).toHaveCount(0);
  await expect(box).toHaveCount(0);
  await expect(again.getByRole("button", { name: "Send reply" })).toHaveCount(0);
  await expect(alice.page.getByLabel("Message", { exact: true })).toHaveValue("half-typed reply");
  await expect(threads).toHaveText("Threads");

  // An edit being typed when its message is deleted in another tab goes there too, after what the box holds.
  await send(alice.page, "fig first words");
  const second = await alice.context.newPage();
  await second.goto(alice.page.url());
  const mine = article(alice.page, "fig first words");
  await mine.hover();
  await mine.getByRole("button", { name: "Edit", exact: true }).click();
  await alice.page.getByLabel("Edit message").fill("fig better words");
  await alice.page.getByLabel("Message", { exact: true }).fill("a draft of mine");
  const there = article(second, "fig first words");
  await there.hover({ timeout: 20_000 });
  await there.getByRole("button", { name: "Delete", exact: true }).click();
  await second.getByRole("dialog", { name: "Delete Message" }).getByRole("button", { name: "Delete" }).click();
  await expect(alice.page.getByText("The message you were editing was deleted. Your text is in the message box.")).toBeVisible();
  await expect(alice.page.getByLabel("Edit message")).toHaveCount(0);
  await expect(alice.page.getByLabel("Message", { exact: true })).toHaveValue("a draft of mine\nfig better words");

  // Deleted from the page where it is being edited: nothing to say, nothing moved.
  await send(alice.page, "plum to delete");
  // (by its id: while edited, its text is in the edit box, not in the message)
  const plum = alice.page.locator(`[id="${await article(alice.page, "plum to delete").getAttribute("id")}"]`);
  await plum.hover();
  await plum.getByRole("button", { name: "Edit", exact: true }).click();
  await alice.page.getByLabel("Edit message").fill("plum changed");
  await plum.hover();
  await plum.getByRole("button", { name: "Delete", exact: true }).click();
  await alice.page.getByRole("dialog", { name: "Delete Message" }).getByRole("button", { name: "Delete" }).click();
  await expect(log(alice.page).getByText("plum")).toHaveCount(0);
  await expect(log(second).getByText("plum")).toHaveCount(0);
  await expect(alice.page.getByText("The message you were editing was deleted.")).toHaveCount(0);
  await expect(alice.page.getByLabel("Message", { exact: true })).toHaveValue("");
});

test("a link edited out of a message takes its preview along, here and for the others", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `preview-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Links", password);
  await joinAndOpen(bob.page, channelId, password, "Links");
  const url = `${process.env.E2E_PREVIEW_ORIGIN}/article?id=${Date.now()}`;
  await send(alice.page, `heron read this ${url}`);
  for (const page of [alice.page, bob.page])
    await expect(article(page, "heron read this")).toContainText("Quarterly Security Review & Roadmap", { timeout: 20_000 });
  await edit(alice.page, `heron read this ${url}`, "heron read this, link removed");
  for (const page of [alice.page, bob.page]) {
    await expect(article(page, "heron read this, link removed")).toBeVisible();
    await expect(article(page, "heron read this")).not.toContainText("Quarterly Security Review");
  }
  await bob.page.reload();
  await expect(article(bob.page, "heron read this, link removed")).toBeVisible({ timeout: 20_000 });
  await expect(article(bob.page, "heron read this")).not.toContainText("Quarterly Security Review");

  // Edited to carry another link: that link's preview follows, here, for Bob, and after a reload.
  const other = `${process.env.E2E_PREVIEW_ORIGIN}/second?id=${Date.now()}`;
  await edit(alice.page, "heron read this, link removed", `heron read this instead ${other}`);
  for (const page of [alice.page, bob.page])
    await expect(article(page, "heron read this instead")).toContainText("Winter Rollout Plan", { timeout: 20_000 });
  for (const page of [alice.page, bob.page]) {
    await page.reload();
    await expect(article(page, "heron read this instead")).toContainText("Winter Rollout Plan", { timeout: 20_000 });
    await expect(article(page, "heron read this instead")).not.toContainText("Quarterly Security Review");
  }
});
