import { apiMember } from "./api-member";
import { expect, test } from "./fixtures";
import { createChannel, log, person, send, waitLive } from "./helpers";

// A channel's latest page is asked for as soon as its button is pressed, before the click lands; what is
// sent between that request and the opening still shows when it opens.
test("pressing a channel asks for its latest page before the click, and a message sent in between still shows when it opens", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const password = `intent-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Ahead Channel", password);
  await send(alice.page, "the first word");
  await createChannel(alice.page, "Elsewhere", `${password}-2`);
  await waitLive(alice.page);
  const bob = await apiMember(channelId, password);

  const pages: { url: string; at: number }[] = [];
  alice.page.on("request", (r) => {
    if (r.url().includes(`/api/channels/${channelId}/messages`)) pages.push({ url: r.url(), at: Date.now() });
  });
  const button = alice.page.getByRole("button", { name: "# Ahead Channel", exact: true });
  const asked = alice.page.waitForRequest((r) => r.url().includes(`/api/channels/${channelId}/messages?limit=200`));
  await button.hover();
  await alice.page.mouse.down();
  await asked;
  // Bob writes after that request; Alice's page hears of it (the unread count) while the channel is closed.
  await bob.post(["sent between the request and the click"]);
  await expect(button.locator("xpath=..").getByRole("img", { name: "1 unread" })).toBeVisible({ timeout: 20_000 });
  const clickedAt = Date.now();
  await alice.page.mouse.up();
  await expect(log(alice.page).getByText("the first word", { exact: true })).toBeVisible();
  await expect(log(alice.page).getByText("sent between the request and the click", { exact: true })).toBeVisible({ timeout: 20_000 });
  // the latest page was the one asked for ahead (none after the click; what came later came with the
  // live stream's catch-up, which reads what came after, then the latest page again for deletions: ADR 33)
  const isLatest = (p: { url: string }) => !/[?&](around|after|before)=/.test(p.url);
  const catchUp = pages.findIndex((p) => /[?&]after=/.test(p.url));
  const opening = catchUp === -1 ? pages : pages.slice(0, catchUp);
  expect(opening.filter(isLatest).length).toBe(1);
  expect(opening.filter(isLatest)[0].at).toBeLessThan(clickedAt);
  expect(pages.filter(isLatest).length).toBeLessThanOrEqual(2);
  await alice.context.close();
});

// What a conversation's parts read in the background when it opens (its call lines and call status, the
// retention policy, its members) waits until its first page is drawn: none of it competes with that page.
test("opening a conversation, its call lines, call status, retention policy and members are asked for only after its first page is shown", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const password = `order-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Page First", password);
  await send(alice.page, "the page comes first");
  // a page opened afresh, at no conversation: nothing read yet (the retention policy is read at most once a minute)
  await alice.page.goto("/");
  await waitLive(alice.page);

  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const latest = (url: URL) => url.pathname === `/api/channels/${channelId}/messages` && url.searchParams.get("limit") === "200";
  await alice.page.route(latest, async (route) => {
    await held;
    await route.continue();
  });
  const background = [
    `/api/calls/${channelId}/records`,
    `/api/calls/${channelId}/status`,
    "/api/retention",
    `/api/channels/${channelId}/members`,
  ];
  const asked: string[] = [];
  alice.page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (background.includes(path)) asked.push(path);
  });
  const pageAsked = alice.page.waitForRequest((r) => latest(new URL(r.url())));
  await alice.page.getByRole("button", { name: "# Page First", exact: true }).click();
  await pageAsked;
  await expect(alice.page.getByRole("heading", { name: "# Page First" })).toBeVisible();
  // (a frame or two for whatever the opening starts)
  await alice.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(asked).toEqual([]);
  release();
  await expect(log(alice.page).getByText("the page comes first", { exact: true })).toBeVisible();
  await expect.poll(() => [...new Set(asked)].sort(), { timeout: 10_000 }).toEqual([...background].sort());
  await alice.context.close();
});
