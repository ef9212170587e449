import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { message, person, send, waitLive, type Person } from "./helpers";

// A group DM from a stranger (ADR 0052), in the browser with the settings `npm start` uses: each person
// asked gets a request of their own. Bob accepts and reads the group from its first message; Carol
// declines and nothing of the group reaches her, then or later.

/** "New message" to these people, each found by exact username (nobody shares a channel), with a name. */
async function startGroup(page: Page, people: Person[], name: string) {
  await page.getByRole("button", { name: "New message" }).click();
  const dialog = page.getByRole("dialog", { name: "New message" });
  for (const to of people) {
    await dialog.getByLabel("Find by username").fill(to.user.username);
    await dialog.getByLabel("Find by username").press("Enter");
    await expect(dialog.getByRole("checkbox", { name: to.user.username })).toBeChecked();
  }
  await dialog.getByLabel("Conversation name (optional)").fill(name);
  await dialog.getByRole("button", { name: "Start conversation" }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole("heading", { name: `@ ${name}` })).toBeVisible();
}

const requestOf = (page: Page, from: Person) => page.getByRole("group", { name: `${from.user.username} wants to message you` });

test("a stranger's group DM: a request for each person asked; Bob accepts and reads it from the first message, Carol declines and sees nothing", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const [mallory, bob, carol] = await Promise.all([person(browser, "mallory"), person(browser, "bob"), person(browser, "carol")]);
  await Promise.all([waitLive(bob.page), waitLive(carol.page)]);
  const name = `Side project ${Date.now()}`;
  await startGroup(mallory.page, [bob, carol], name);

  // Nobody has accepted yet: her page says so, naming whom she asked, and what she writes waits on her device.
  const waiting = `Waiting for ${bob.user.username} and ${carol.user.username} to accept your request`;
  await expect(mallory.page.getByRole("status").filter({ hasText: waiting }).first()).toBeVisible({ timeout: 10_000 });
  await waitLive(mallory.page);
  await send(mallory.page, "first words to the side project");
  await expect(mallory.page.getByRole("list", { name: "Messages not sent yet" })).toContainText(waiting);

  // Each person asked has a request of their own, live, naming only who asks: not the group's name.
  for (const asked of [bob, carol]) {
    await expect(requestOf(asked.page, mallory)).toBeVisible({ timeout: 10_000 });
    const html = await asked.page.content();
    expect(html).not.toContain(name);
    expect(html).not.toContain("first words to the side project");
  }

  // Carol declines: her request goes, and the group is not hers.
  await requestOf(carol.page, mallory).getByRole("button", { name: "Decline" }).click();
  await expect(requestOf(carol.page, mallory)).toHaveCount(0);

  // Bob accepts: the group opens and Mallory's first message arrives; her outbox empties.
  await requestOf(bob.page, mallory).getByRole("button", { name: "Accept" }).click();
  await expect(message(bob.page, "first words to the side project")).toBeVisible({ timeout: 30_000 });
  await expect(message(mallory.page, "first words to the side project")).toBeVisible({ timeout: 20_000 });
  await expect(mallory.page.getByRole("list", { name: "Messages not sent yet" })).toHaveCount(0);
  await expect(mallory.page.getByText(waiting)).toHaveCount(0);
  await expect(bob.page.getByRole("heading", { name: `@ ${name}` })).toBeVisible({ timeout: 30_000 });

  // They talk, both ways; Carol's page, live and after a reload, holds nothing of it.
  await waitLive(bob.page);
  await send(bob.page, "bob joins the side project");
  await expect(message(mallory.page, "bob joins the side project")).toBeVisible({ timeout: 20_000 });
  await send(mallory.page, "glad you are in, bob");
  await expect(message(bob.page, "glad you are in, bob")).toBeVisible({ timeout: 20_000 });
  await carol.page.reload();
  await waitLive(carol.page);
  await expect(requestOf(carol.page, mallory)).toHaveCount(0);
  await expect(carol.page.getByText("No direct messages yet")).toBeVisible();
  const html = await carol.page.content();
  for (const text of [name, "first words", "bob joins", "glad you are in"]) expect(html).not.toContain(text);
});
