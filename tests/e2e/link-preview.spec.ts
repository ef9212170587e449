import { expect, filesContaining, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send, waitLive } from "./helpers";

test("a link gets an encrypted preview with title, description and image on both screens", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `preview-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Links", password);
  await joinAndOpen(bob.page, channelId, password, "Links");
  await waitLive(alice.page);

  // Bob's browser must never contact the linked site: record every request it makes.
  const bobRequests: string[] = [];
  bob.page.on("request", (r) => bobRequests.push(r.url()));
  const url = `${process.env.E2E_PREVIEW_ORIGIN}/article?id=${Date.now()}`;
  await send(alice.page, `Have a look: ${url}`);

  for (const page of [alice.page, bob.page]) {
    const card = log(page).locator("a.link-preview");
    await expect(card).toBeVisible({ timeout: 20_000 });
    await expect(card).toContainText("Quarterly Security Review & Roadmap");
    await expect(card).toContainText("What we shipped, what we fixed, and what comes next.");
    await expect(card.locator("img")).toBeVisible();
    expect(await card.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(32);
  }
  expect(bobRequests.filter((u) => u.startsWith(process.env.E2E_PREVIEW_ORIGIN!))).toEqual([]);
  // Title, description and URL are stored encrypted.
  const dirs = [process.env.E2E_PB_DATA!];
  expect(filesContaining(dirs, "Quarterly Security Review")).toEqual([]);
  expect(filesContaining(dirs, url)).toEqual([]);
  await alice.context.close();
  await bob.context.close();
});
