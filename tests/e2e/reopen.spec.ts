import type { Browser, Page, Route } from "@playwright/test";
import { expect, signIn, signOut, test } from "./fixtures";
import { createChannel, joinAndOpen, log, message, person, send, waitLive } from "./helpers";

/** Holds the requests for a channel's latest page until `release` is called (the server "answers late"). */
async function holdLatestPage(page: Page, channelId: string) {
  const held: Route[] = [];
  let holding = true;
  await page.route(
    (url) => url.pathname === `/api/channels/${channelId}/messages` && !/[?&](count|before|after|around)=/.test(url.search),
    (route) => (holding ? void held.push(route) : route.continue()),
  );
  return {
    asked: () => held.length,
    release: async () => {
      holding = false;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

/** Alice's channel `name`, Bob in it too, both live. */
async function bothIn(browser: Browser, name: string) {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `${name}-${Date.now()}`;
  const channelId = await createChannel(alice.page, name, password);
  await joinAndOpen(bob.page, channelId, password, name);
  await waitLive(alice.page);
  return { alice, bob, channelId };
}

test("a conversation opened before shows its messages at once, then catches up with what changed while away", async ({ browser }) => {
  test.setTimeout(120_000);
  const { alice, bob, channelId } = await bothIn(browser, "Kept");
  await send(alice.page, "the first kept message");
  await send(alice.page, "a message deleted while bob is away");
  await send(alice.page, "a message edited while bob is away");
  await expect(message(bob.page, "a message edited while bob is away")).toBeVisible();

  // Bob goes elsewhere; meanwhile Alice deletes one message, edits another and writes a new one.
  await createChannel(bob.page, "Elsewhere", `else-${Date.now()}`);
  const doomed = message(alice.page, "a message deleted while bob is away");
  await doomed.hover();
  await doomed.getByRole("button", { name: "Delete" }).click();
  await alice.page.getByRole("dialog", { name: "Delete Message" }).getByRole("button", { name: "Delete" }).click();
  await expect(doomed).toHaveCount(0);
  const edited = message(alice.page, "a message edited while bob is away");
  await edited.hover();
  await edited.getByRole("button", { name: "Edit" }).click();
  await alice.page.getByLabel("Edit message").fill("the edit made while bob was away");
  await alice.page.getByLabel("Edit message").press("Enter");
  await expect(message(alice.page, "the edit made while bob was away")).toContainText("(edited)");
  await send(alice.page, "a message written while bob is away");

  // Back to Kept while the server has not answered yet: what Bob saw is there at once, from memory.
  const server = await holdLatestPage(bob.page, channelId);
  await bob.page.getByRole("button", { name: "# Kept" }).click();
  await expect(message(bob.page, "the first kept message")).toBeVisible();
  await expect(message(bob.page, "a message deleted while bob is away")).toBeVisible();
  await expect.poll(server.asked).toBeGreaterThan(0);

  // The server's page catches it up: the deleted message goes, the edit shows, the new message arrives.
  await server.release();
  await expect(message(bob.page, "a message written while bob is away")).toBeVisible();
  await expect(message(bob.page, "the edit made while bob was away")).toContainText("(edited)");
  await expect(message(bob.page, "a message deleted while bob is away")).toHaveCount(0);
  await expect(message(bob.page, "a message edited while bob is away")).toHaveCount(0);
  await expect(message(bob.page, "the first kept message")).toBeVisible();

  // Signing out forgets every kept conversation: signed in again, nothing shows before the server answers.
  await signOut(bob.page);
  const again = await holdLatestPage(bob.page, channelId);
  await signIn(bob.page, bob.user);
  await bob.page.getByRole("button", { name: "# Kept" }).click();
  await expect.poll(again.asked).toBeGreaterThan(0);
  await expect(bob.page.getByRole("heading", { name: "# Kept" })).toBeVisible();
  await expect(log(bob.page).getByRole("article")).toHaveCount(0);
  await again.release();
  await expect(message(bob.page, "a message written while bob is away")).toBeVisible();
  await alice.context.close();
  await bob.context.close();
});

test("coming back to a long conversation puts every message back, at the bottom or where the reader was", async ({ browser }) => {
  test.setTimeout(180_000);
  const { alice, bob } = await bothIn(browser, "Long");
  for (let i = 0; i < 60; i++) await send(alice.page, `long line ${i}.`);
  await expect(message(bob.page, "long line 59.")).toBeVisible();
  await createChannel(bob.page, "Aside", `aside-${Date.now()}`);
  const articles = log(bob.page).getByRole("article");

  // At the bottom when Bob left: back at the bottom, every message there (the oldest too).
  await bob.page.getByRole("button", { name: "# Long" }).click();
  await expect(articles).toHaveCount(60);
  await expect(message(bob.page, "long line 59.")).toBeInViewport();
  await expect(message(bob.page, "long line 0.")).toBeAttached();

  // Far up when Bob left: the same message at the same height, every message there.
  await message(bob.page, "long line 3.").scrollIntoViewIfNeeded();
  await log(bob.page).evaluate((el) => el.dispatchEvent(new Event("scroll")));
  // (its height in the list: what is above the list, a notice that comes and goes, moves the whole list)
  const top = async () => (await message(bob.page, "long line 3.").boundingBox())!.y - (await log(bob.page).boundingBox())!.y;
  const before = await top();
  await bob.page.getByRole("button", { name: "# Aside" }).click();
  await expect(articles).toHaveCount(0);
  await bob.page.getByRole("button", { name: "# Long" }).click();
  await expect(articles).toHaveCount(60);
  await expect.poll(top).toBeCloseTo(before, -1);
  await expect(message(bob.page, "long line 59.")).not.toBeInViewport();
  await alice.context.close();
  await bob.context.close();
});

test("a reader who moves up just as the list's height changes comes back to the same place", async ({ browser }) => {
  test.setTimeout(180_000);
  const { alice, bob } = await bothIn(browser, "Tall");
  for (let i = 0; i < 40; i++) await send(alice.page, `tall line ${i}.`);
  await expect(message(bob.page, "tall line 39.")).toBeInViewport();
  await createChannel(bob.page, "Beside", `beside-${Date.now()}`);
  const articles = log(bob.page).getByRole("article");

  // One scroll event carries all three: the page putting the list at its bottom as the conversation
  // opens, the list getting shorter (a bar appearing below it), and Bob jumping far up (the Home key,
  // the scroll bar dragged), in the same frame: right after the list's messages are put in the page.
  await bob.page.evaluate(() => {
    const seen = new MutationObserver(() => {
      const list = document.querySelector<HTMLElement>('[role="log"][aria-label="Messages"]');
      if (!list?.textContent?.includes("tall line 39.")) return;
      seen.disconnect();
      list.style.maxHeight = `${list.clientHeight - 40}px`;
      list.scrollTop = 0;
    });
    seen.observe(document.body, { childList: true, subtree: true });
  });
  await bob.page.getByRole("button", { name: "# Tall" }).click();
  await expect(articles).toHaveCount(40);
  await expect(message(bob.page, "tall line 39.")).not.toBeInViewport();
  // the message at the top of what Bob sees once the list is whole (the older ones came above it)
  const shown = await log(bob.page).evaluate(async (list) => {
    await new Promise((settled) => requestAnimationFrame(() => requestAnimationFrame(settled)));
    const edge = list.getBoundingClientRect().top;
    const texts = [...list.querySelectorAll<HTMLElement>(".message-text")];
    return texts.find((text) => text.getBoundingClientRect().bottom > edge)?.innerText ?? "";
  });
  expect(shown).toMatch(/^tall line \d+\.$/);
  const line = message(bob.page, shown);
  await expect(line).toBeInViewport();
  const top = async () => (await line.boundingBox())!.y;
  const before = await top();
  await bob.page.getByRole("button", { name: "# Beside" }).click();
  await expect(articles).toHaveCount(0);
  await bob.page.getByRole("button", { name: "# Tall" }).click();
  await expect(articles).toHaveCount(40);
  await expect.poll(top).toBeCloseTo(before, -1);
  await expect(message(bob.page, "tall line 39.")).not.toBeInViewport();
  await alice.context.close();
  await bob.context.close();
});
