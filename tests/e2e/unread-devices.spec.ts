import type { Page, Request } from "@playwright/test";
import { expect, NO_ANSWER, signIn, test } from "./fixtures";
import { channelRow, createChannel, joinAndOpen, log, person, send, waitLive } from "./helpers";

// Unread counts come from the server and follow the user across devices: what one device reads, or
// what its sender deletes before anyone read it, stops counting on every open page at once, without a
// reload (a live "unread" event, pocketbase/unread.go). A conversation whose first unread messages
// arrived live shows the "New messages" line above them when opened.

const channelButton = (page: Page, name: string) => page.getByRole("button", { name: `# ${name}`, exact: true });
/** The tab title without an unread count ("(2) ChatCrypt" has one). */
const NO_COUNT_IN_TITLE = /^[^(]/;

test("reading a conversation on one device clears its count, and the title's, on the user's other open device", async ({
  browser,
  consoleErrors,
}) => {
  // (the laptop's requests while it is offline)
  consoleErrors.allow(NO_ANSWER);
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `devices-${Date.now()}`;
  const ops = await createChannel(alice.page, "Ops Room", password);
  const general = await createChannel(alice.page, "General Room", password);
  await joinAndOpen(bob.page, ops, password, "Ops Room");
  await joinAndOpen(bob.page, general, password, "General Room");

  // Alice's second device, signed in on its own, with General open
  const laptopContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const laptop = await laptopContext.newPage();
  await signIn(laptop, alice.user);
  await channelButton(laptop, "General Room").click();
  await waitLive(laptop);
  await channelButton(alice.page, "General Room").click();
  await waitLive(alice.page);

  await channelButton(bob.page, "Ops Room").click();
  await waitLive(bob.page);
  await send(bob.page, "ops one");
  await send(bob.page, "ops two");
  for (const page of [alice.page, laptop]) {
    await expect(channelRow(page, "Ops Room").getByRole("img", { name: "2 unread" })).toBeVisible({ timeout: 20_000 });
    await expect(page).toHaveTitle(/^\(2\)/);
  }

  // Alice reads Ops on her first device
  await channelButton(alice.page, "Ops Room").click();
  await expect(log(alice.page).getByText("ops two")).toBeVisible();
  await expect(channelRow(alice.page, "Ops Room").getByRole("img", { name: /unread/ })).toHaveCount(0);

  // The laptop, still on General, no longer counts them
  await expect(channelRow(laptop, "Ops Room").getByRole("img", { name: /unread/ })).toHaveCount(0, { timeout: 15_000 });
  await expect(laptop).toHaveTitle(NO_COUNT_IN_TITLE);

  // The laptop is offline while Alice reads on her first device: back online, it catches up without a
  // reload (its stream looked open and had lost the read, and the count stayed).
  await channelButton(alice.page, "General Room").click();
  await send(bob.page, "ops three");
  for (const page of [alice.page, laptop])
    await expect(channelRow(page, "Ops Room").getByRole("img", { name: "1 unread" })).toBeVisible({ timeout: 20_000 });
  // (the stream stays open through the drop and tells of the read; the counts' request then fails)
  let failed = 0;
  laptop.on("requestfailed", (request) => void (request.url().includes("/api/unread") && failed++));
  await laptopContext.setOffline(true);
  await channelButton(alice.page, "Ops Room").click();
  await expect(log(alice.page).getByText("ops three")).toBeVisible();
  await expect(channelRow(alice.page, "Ops Room").getByRole("img", { name: /unread/ })).toHaveCount(0);
  await expect.poll(() => failed, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  await laptopContext.setOffline(false);
  await expect(channelRow(laptop, "Ops Room").getByRole("img", { name: /unread/ })).toHaveCount(0, { timeout: 10_000 });
  await expect(laptop).toHaveTitle(NO_COUNT_IN_TITLE);
  await laptopContext.close();
});

test("a conversation whose first unread messages arrived live shows the New messages line above them when opened", async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `first-unread-${Date.now()}`;
  const general = await createChannel(alice.page, "General Room", password);
  await joinAndOpen(bob.page, general, password, "General Room");
  await waitLive(alice.page);
  await send(bob.page, "yesterday's message");
  await expect(log(alice.page).getByText("yesterday's message")).toBeVisible();
  await createChannel(alice.page, "Project Room", password);

  // The next morning Alice opens the app in Project Room: nothing is unread in General. Her page
  // reads the counts when its list arrives, and again once its live stream is up (with the list
  // read again); Bob writes only after those loads were answered, as on a page open for a while
  // (an answer that counted his messages would tell where they begin).
  const loads = { started: 0, answered: 0 };
  const isCounts = (url: string) => new URL(url).pathname === "/api/unread";
  // (only the loads seen starting: one already on its way when these listeners came finishes uncounted)
  const counted = new Set<Request>();
  alice.page.on("request", (r) => void (isCounts(r.url()) && counted.add(r) && loads.started++));
  alice.page.on("requestfinished", (r) => void (counted.has(r) && loads.answered++));
  // (one the reload cut short, too)
  alice.page.on("requestfailed", (r) => void (counted.has(r) && loads.answered++));
  await alice.page.reload();
  await expect(alice.page.getByRole("heading", { name: "# Project Room" })).toBeVisible({ timeout: 20_000 });
  await waitLive(alice.page);
  await expect.poll(() => loads.answered >= 2 && loads.answered === loads.started, { timeout: 20_000 }).toBe(true);
  await expect(channelRow(alice.page, "General Room").getByRole("img", { name: /unread/ })).toHaveCount(0);

  // Bob's first messages of the day arrive while her page is open
  await send(bob.page, "morning 1");
  await send(bob.page, "morning 2");
  await expect(channelRow(alice.page, "General Room").getByRole("img", { name: "2 unread" })).toBeVisible({ timeout: 20_000 });

  await channelButton(alice.page, "General Room").click();
  await waitLive(alice.page);
  await expect(log(alice.page).getByText("morning 2")).toBeVisible();
  // the line stands between what she had read and the first new message
  const line = log(alice.page).getByRole("separator", { name: "New messages" });
  await expect(line).toBeVisible();
  const order = () =>
    log(alice.page)
      .locator('.message-text, [role="separator"]')
      .evaluateAll((els) =>
        els.map((e) => (e.getAttribute("role") === "separator" ? `[${e.getAttribute("aria-label")}]` : (e.textContent ?? ""))),
      );
  await expect
    .poll(async () => {
      const seen = await order();
      const at = seen.indexOf("[New messages]");
      return [seen[at - 1], seen[at + 1]];
    })
    .toEqual([expect.stringContaining("yesterday's message"), expect.stringContaining("morning 1")]);
});

test("a message its sender deleted before it was read stops counting as unread, and as a mention, at once", async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `deleted-unread-${Date.now()}`;
  const general = await createChannel(alice.page, "General Room", password);
  await joinAndOpen(bob.page, general, password, "General Room");
  await createChannel(alice.page, "Other Room", password);
  await waitLive(alice.page);

  await send(bob.page, `oops wrong channel @${alice.user.username}, sorry`);
  await expect(channelRow(alice.page, "General Room").getByRole("img", { name: "1 unread" })).toBeVisible({ timeout: 20_000 });
  await expect(channelRow(alice.page, "General Room").getByRole("img", { name: "1 mention" })).toBeVisible();
  await expect(alice.page).toHaveTitle(/^\(1\)/);

  // Bob deletes it before Alice opened General
  const doomed = log(bob.page).getByRole("article").filter({ hasText: "oops wrong channel" });
  await doomed.hover();
  await doomed.getByRole("button", { name: "Delete" }).click();
  await bob.page.getByRole("dialog", { name: "Delete Message" }).getByRole("button", { name: "Delete" }).click();
  await expect(doomed).toHaveCount(0);

  await expect(channelRow(alice.page, "General Room").getByRole("img", { name: /unread|mention/ })).toHaveCount(0, { timeout: 15_000 });
  await expect(alice.page).toHaveTitle(NO_COUNT_IN_TITLE);
});
