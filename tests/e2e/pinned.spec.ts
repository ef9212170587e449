import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send } from "./helpers";
import { openDetail } from "./header-helpers";

// Pinned messages: a pin is a signed, encrypted event like a reaction; the latest one per message wins.

const article = (page: Page, text: string) => log(page).getByRole("article").filter({ hasText: text });

async function choose(page: Page, text: string, item: "Pin message" | "Unpin message") {
  await article(page, text).hover();
  await article(page, text).getByRole("button", { name: "More" }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

test("pin and unpin are shown live on the other screen, listed in Pinned, and kept after a reload", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `pinned-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Pinned Things", password);
  await joinAndOpen(bob.page, channelId, password, "Pinned Things");
  await send(bob.page, "we ship on Thursday");
  await send(alice.page, "something else entirely");
  await expect(article(alice.page, "we ship on Thursday")).toBeVisible();

  // Alice pins Bob's message: Bob's screen says so at once.
  await choose(alice.page, "we ship on Thursday", "Pin message");
  await expect(article(alice.page, "we ship on Thursday").getByText("Pinned by you")).toBeVisible();
  await expect(article(bob.page, "we ship on Thursday").getByText(`Pinned by ${alice.user.username}`)).toBeVisible();

  // The Pinned panel lists it, with who pinned it, and leads to it.
  await openDetail(bob.page, "Pinned");
  const panel = bob.page.getByRole("complementary", { name: "Pinned" });
  await expect(panel.getByRole("listitem")).toHaveCount(1);
  await expect(panel.getByRole("listitem").first()).toContainText("we ship on Thursday");
  await expect(panel.getByRole("listitem").first()).toContainText(`pinned by ${alice.user.username}`);
  await panel.getByRole("button", { name: "Jump to message" }).click();
  await expect(article(bob.page, "we ship on Thursday")).toHaveClass(/highlight/);

  // After a reload the pin is still there (read back with the history).
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Pinned Things" }).click();
  await expect(article(alice.page, "we ship on Thursday").getByText("Pinned by you")).toBeVisible();

  // Bob unpins it: Alice's screen and Bob's panel follow.
  await choose(bob.page, "we ship on Thursday", "Unpin message");
  await expect(article(alice.page, "we ship on Thursday").getByText(/Pinned by/)).toHaveCount(0);
  await expect(panel.getByText("Nothing is pinned here yet.", { exact: false })).toBeVisible();

  // The server holds pin events, never whether they pin or unpin, nor the message's text.
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const events = await admin
    .collection("messages")
    .getFullList({ filter: admin.filter("channel = {:c} && kind = 'pin'", { c: channelId }) });
  expect(events).toHaveLength(2);
  for (const e of events) expect(JSON.stringify(e)).not.toMatch(/Thursday|pinned|true|false/);

  await alice.context.close();
  await bob.context.close();
});

test("the Pinned panel shows a pinned message as its sender last edited it, also after a reload", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `pinned-edit-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Pinned Edits", password);
  await joinAndOpen(bob.page, channelId, password, "Pinned Edits");
  await send(bob.page, "the launch is on Monday");
  await expect(article(alice.page, "the launch is on Monday")).toBeVisible({ timeout: 20_000 });
  await choose(alice.page, "the launch is on Monday", "Pin message");
  await expect(article(bob.page, "the launch is on Monday").getByText(`Pinned by ${alice.user.username}`)).toBeVisible();

  // Bob corrects his message after it was pinned.
  const mine = article(bob.page, "the launch is on Monday");
  await mine.hover();
  await mine.getByRole("button", { name: "Edit" }).click();
  await bob.page.getByLabel("Edit message").fill("the launch moved to Wednesday");
  await bob.page.getByLabel("Edit message").press("Enter");
  await expect(article(alice.page, "the launch moved to Wednesday")).toContainText("(edited)", { timeout: 20_000 });

  for (const reload of [false, true]) {
    if (reload) {
      await alice.page.reload();
      await alice.page.getByRole("button", { name: "# Pinned Edits" }).click();
    }
    await openDetail(alice.page, "Pinned");
    const panel = alice.page.getByRole("complementary", { name: "Pinned" });
    await expect(panel.getByRole("listitem")).toHaveCount(1);
    await expect(panel.getByRole("listitem").first()).toContainText("the launch moved to Wednesday");
    await expect(panel.getByRole("listitem").first()).not.toContainText("Monday");
    await alice.page.getByRole("button", { name: "Close pinned messages" }).click();
  }

  // With Alice's panel open, Bob edits it again: the open panel follows.
  await openDetail(alice.page, "Pinned");
  const panel = alice.page.getByRole("complementary", { name: "Pinned" });
  await expect(panel.getByRole("listitem").first()).toContainText("the launch moved to Wednesday");
  const again = article(bob.page, "the launch moved to Wednesday");
  await again.hover();
  await again.getByRole("button", { name: "Edit" }).click();
  await bob.page.getByLabel("Edit message").fill("the launch moved to Thursday");
  await bob.page.getByLabel("Edit message").press("Enter");
  await expect(panel.getByRole("listitem").first()).toContainText("the launch moved to Thursday", { timeout: 20_000 });
  await alice.context.close();
  await bob.context.close();
});
