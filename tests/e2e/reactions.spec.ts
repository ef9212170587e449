import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { expect, filesContaining, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send } from "./helpers";

// Reactions: any emoji from the picker (loaded when first opened, its data served by this app), and
// each reaction names who reacted, in its accessible name and its tooltip. They stay encrypted events.

const article = (page: Page, text: string) => log(page).getByRole("article").filter({ hasText: text });

async function quickReact(page: Page, text: string, emoji: string) {
  await article(page, text).hover();
  await article(page, text).getByRole("button", { name: "React", exact: true }).click();
  await page.getByRole("menu", { name: "React with" }).getByRole("menuitem", { name: emoji, exact: true }).click();
}

test("any emoji from the picker, and who reacted on each reaction, live and after a reload", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `reactions-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Reactions", password);
  await joinAndOpen(bob.page, channelId, password, "Reactions");
  await send(alice.page, "the rollout starts at noon");
  await expect(article(bob.page, "the rollout starts at noon")).toBeVisible({ timeout: 20_000 });

  // Bob opens the picker from React > More emoji: not part of the page until then.
  const emojiRequests: string[] = [];
  bob.page.on("request", (request) => request.url().includes("/emoji/") && emojiRequests.push(request.url()));
  expect(emojiRequests).toEqual([]);
  const note = article(bob.page, "the rollout starts at noon");
  await note.hover();
  await note.getByRole("button", { name: "React", exact: true }).click();
  await bob.page.getByRole("menu", { name: "React with" }).getByRole("menuitem", { name: "More emoji" }).click();
  const picker = bob.page.getByRole("dialog", { name: "Pick a reaction" });
  await expect(picker.getByRole("gridcell").first()).toBeVisible({ timeout: 20_000 });
  expect(emojiRequests.every((url) => new URL(url).origin === new URL(bob.page.url()).origin)).toBe(true);
  await expectAccessible(bob.page, "emoji picker");
  await picker.getByLabel("Search emoji").fill("rocket");
  await picker.getByRole("gridcell", { name: "Rocket", exact: true }).click();
  await expect(picker).toBeHidden();

  // Both see who reacted, in the reaction's name and its tooltip.
  const rocketOnAlice = article(alice.page, "the rollout starts at noon").getByRole("button", { name: /^🚀 1/ });
  await expect(rocketOnAlice).toHaveAccessibleName(`🚀 1: ${bob.user.username} reacted with 🚀`, { timeout: 20_000 });
  await expect(rocketOnAlice).toHaveAttribute("title", `${bob.user.username} reacted with 🚀`);
  await expect(note.getByRole("button", { name: /^🚀 1/ })).toHaveAccessibleName("🚀 1: You reacted with 🚀");

  // Two people with one emoji: in the order they reacted, "You" first on one's own screen.
  await quickReact(alice.page, "the rollout starts at noon", "👍");
  await expect(note.getByRole("button", { name: /^👍 1/ })).toHaveAccessibleName(`👍 1: ${alice.user.username} reacted with 👍`, {
    timeout: 20_000,
  });
  await quickReact(bob.page, "the rollout starts at noon", "👍");
  await expect(note.getByRole("button", { name: /^👍 2/ })).toHaveAttribute("title", `You, ${alice.user.username} reacted with 👍`);
  const thumbsOnAlice = article(alice.page, "the rollout starts at noon").getByRole("button", { name: /^👍 2/ });
  await expect(thumbsOnAlice).toHaveAccessibleName(`👍 2: You, ${bob.user.username} reacted with 👍`, { timeout: 20_000 });

  // After a reload, the same.
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Reactions", exact: true }).click();
  await expect(thumbsOnAlice).toHaveAttribute("title", `You, ${bob.user.username} reacted with 👍`, { timeout: 20_000 });
  await expect(rocketOnAlice).toHaveAccessibleName(`🚀 1: ${bob.user.username} reacted with 🚀`);

  // The picked emoji is encrypted like the rest: not in the server's data in plain text.
  expect(filesContaining([process.env.E2E_PB_DATA!], "🚀")).toEqual([]);
  await alice.context.close();
  await bob.context.close();
});
