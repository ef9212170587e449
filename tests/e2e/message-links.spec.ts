import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createChannel, createSealed, joinAndOpen, log, person, send } from "./helpers";

/** "Copy link to message" on the message with this text: the link copied. */
async function copyLink(page: Page, text: string): Promise<string> {
  const target = log(page).getByRole("article").filter({ hasText: text });
  await target.hover();
  await target.getByRole("button", { name: "More" }).click();
  await page.getByRole("menuitem", { name: "Copy link to message" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Link copied." })).toBeVisible();
  return page.evaluate(() => navigator.clipboard.readText());
}

// "Copy link to message": the link (the conversation's address with the message, ADR 0061) opens the
// conversation at the message for a member, and tells anyone else only that it is not available.
test("a copied message link opens the channel at the message for a member, and reveals nothing to a non-member", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const carol = await person(browser, "carol");
  const password = `links-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Linked Channel", password);
  await joinAndOpen(bob.page, channelId, password, "Linked Channel");
  await send(alice.page, "the decision we must find again");
  for (let i = 1; i <= 3; i++) await send(alice.page, `later message ${i}`);

  const target = log(alice.page).getByRole("article").filter({ hasText: "the decision we must find again" });
  await target.hover();
  await target.getByRole("button", { name: "More" }).click();
  await alice.page.getByRole("menuitem", { name: "Copy link to message" }).click();
  await expect(alice.page.getByRole("status").filter({ hasText: "Link copied." })).toBeVisible();
  const link = await alice.page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(new RegExp(`^${process.env.E2E_BASE_URL}/c/${channelId}/m/[a-z0-9]{15}$`));
  const messageId = link.split("/").at(-1)!;

  // Bob is elsewhere (no channel open) when he follows the link: the channel opens at the message.
  await bob.page.goto("about:blank");
  await bob.page.goto(link);
  await expect(bob.page.getByRole("heading", { name: "Linked Channel" })).toBeVisible();
  await expect(bob.page.locator(`#message-${messageId}`)).toHaveClass(/highlight/);
  await expect(bob.page.locator(`#message-${messageId}`)).toBeInViewport();
  expect(bob.page.url()).toBe(link);
  // A link of the earlier form (in the fragment) still opens, moved to the message's address.
  await bob.page.goto("about:blank");
  await bob.page.goto(`${process.env.E2E_BASE_URL}/#message=${channelId}/${messageId}/${Date.now()}`);
  await expect(bob.page.locator(`#message-${messageId}`)).toHaveClass(/highlight/);
  expect(bob.page.url()).toBe(link);

  // Carol is not a member: she is told so, and nothing of the channel is asked for (but the page at
  // its address) or shown.
  const asked: string[] = [];
  carol.page.on("request", (r) => {
    if (r.url().includes(channelId) && r.resourceType() !== "document") asked.push(r.url());
  });
  await carol.page.goto(link);
  await expect(carol.page.getByRole("heading", { name: "This conversation is not available to you." })).toBeVisible();
  await expect(carol.page.getByText("Linked Channel")).toHaveCount(0);
  await expect(carol.page.getByText("the decision we must find again")).toHaveCount(0);
  expect(asked).toEqual([]);

  await alice.context.close();
  await bob.context.close();
  await carol.context.close();
});

// A link to a message deleted since says so, also when nothing else is left in the conversation
// (nothing was said there before: the conversation's empty first page never took the link up).
test("a link to a deleted message says it is no longer there, in an empty conversation too", async ({ browser }) => {
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "Emptied Channel", `emptied-${Date.now()}`);
  await send(alice.page, "a message deleted after its link was shared");
  const link = await copyLink(alice.page, "a message deleted after its link was shared");
  const target = log(alice.page).getByRole("article").filter({ hasText: "a message deleted after its link was shared" });
  await target.hover();
  await target.getByRole("button", { name: "Delete", exact: true }).click();
  await alice.page.getByRole("dialog", { name: "Delete Message" }).getByRole("button", { name: "Delete" }).click();
  await expect(target).toHaveCount(0);

  await alice.page.goto("about:blank");
  await alice.page.goto(link);
  await expect(alice.page.getByRole("heading", { name: "Emptied Channel" })).toBeVisible();
  await expect(alice.page.getByRole("alert")).toContainText("This message is no longer there.");
  // A link cut short (its message part cannot be an id) opens the conversation and says the same; it said
  // the conversation was not available to her.
  await alice.page.goto("about:blank");
  await alice.page.goto(link.replace(/\/m\/([a-z0-9]{15})$/, (_all, id: string) => `/m/${id.slice(0, 9)}`));
  await expect(alice.page.getByRole("heading", { name: "Emptied Channel" })).toBeVisible();
  await expect(alice.page.getByRole("alert")).toContainText("This message is no longer there.");
  await expect(alice.page.getByRole("heading", { name: "This conversation is not available to you." })).toHaveCount(0);
  await alice.context.close();
});

test("a sealed channel's link to a message from before the reader joined says why it is not shown", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const carol = await person(browser, "carol");
  const password = `sealed-links-${Date.now()}`;
  const channelId = await createSealed(alice.page, "Sealed Links", password);
  await send(alice.page, "said before carol joined");
  const link = await copyLink(alice.page, "said before carol joined");

  // Carol joins later: the message is there, sealed before she joined (it said "no longer there").
  await joinAndOpen(carol.page, channelId, password, "Sealed Links");
  await carol.page.goto(link);
  await expect(carol.page.getByRole("alert").filter({ hasText: "This message cannot be shown here" })).toHaveText(
    /it was deleted, or sent before this device joined the conversation\./,
    { timeout: 30_000 },
  );
  await alice.context.close();
  await carol.context.close();
});
