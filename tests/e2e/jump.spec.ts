import type { Page } from "@playwright/test";
import { apiMember } from "./api-member";
import { expect, test } from "./fixtures";
import { channelWithPin, log, send } from "./helpers";
import { openDetail } from "./header-helpers";

// A jump to any message (a pin, a search result, a message link) fetches one page around it, wherever it
// is in history; newer messages load below it as the reader goes down, and "Jump to latest" goes back.

const article = (page: Page, text: string) => log(page).getByRole("article").filter({ hasText: text });

test("a pinned message 230 messages back opens with one page around it; Jump to latest goes back; newer ones load below without a gap", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { alice, password, channelId } = await channelWithPin(browser, "Long Story", "the decision we took");
  // Bob writes the 230 that follow through the API, encrypted and signed as his page would.
  const bob = await apiMember(channelId, password);
  await bob.post(Array.from({ length: 230 }, (_, i) => `later message ${i}`));
  await expect(log(alice.page).getByText("later message 229", { exact: true })).toBeVisible({ timeout: 30_000 });

  // A fresh page holds the latest 200 only.
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Long Story", exact: true }).click();
  await expect(log(alice.page).getByText("later message 229", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(article(alice.page, "the decision we took")).toHaveCount(0);
  const pages: string[] = [];
  alice.page.on("request", (r) => {
    if (r.url().includes(`/api/channels/${channelId}/messages`)) pages.push(r.url());
  });
  await openDetail(alice.page, "Pinned");
  await alice.page.getByRole("complementary", { name: "Pinned" }).getByRole("button", { name: "Jump to message" }).click();
  await expect(article(alice.page, "the decision we took")).toBeInViewport();
  await expect(log(alice.page).getByText("later message 99", { exact: true })).toBeAttached();
  await expect(log(alice.page).getByText("later message 229", { exact: true })).toHaveCount(0);
  expect(pages.filter((u) => u.includes("around=")).length).toBe(1);
  // no paging back (a catch-up of the live stream's first connection may be on its way: it is dropped)
  expect(pages.filter((u) => u.includes("before="))).toEqual([]);

  // "Jump to latest" goes back to the newest messages.
  await alice.page.getByRole("button", { name: "Jump to latest" }).click();
  await expect(log(alice.page).getByText("later message 229", { exact: true })).toBeInViewport({ timeout: 20_000 });
  await expect(article(alice.page, "the decision we took")).toHaveCount(0);
  await expect(alice.page.getByRole("button", { name: "Jump to latest" })).toHaveCount(0);

  // Jumped to again, then going down loads what follows, in order, without a gap, up to the latest.
  await alice.page.getByRole("complementary", { name: "Pinned" }).getByRole("button", { name: "Jump to message" }).click();
  await expect(article(alice.page, "the decision we took")).toBeInViewport();
  await log(alice.page).evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(log(alice.page).getByText("later message 229", { exact: true })).toBeAttached({ timeout: 20_000 });
  expect(pages.some((u) => u.includes("after="))).toBe(true);
  await expect(log(alice.page).getByRole("article")).toHaveCount(231);
  await expect(alice.page.getByRole("button", { name: "Jump to latest" })).toHaveCount(0);

  // Sending from a window back in history goes back to the latest, where the message shows.
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Long Story", exact: true }).click();
  await expect(log(alice.page).getByText("later message 229", { exact: true })).toBeVisible({ timeout: 20_000 });
  await openDetail(alice.page, "Pinned");
  await alice.page.getByRole("complementary", { name: "Pinned" }).getByRole("button", { name: "Jump to message" }).click();
  await expect(article(alice.page, "the decision we took")).toBeInViewport();
  await send(alice.page, "back to the present");
  await expect(log(alice.page).getByText("back to the present", { exact: true })).toBeInViewport({ timeout: 20_000 });
  await expect(log(alice.page).getByText("later message 229", { exact: true })).toBeAttached();
  await expect(article(alice.page, "the decision we took")).toHaveCount(0);

  // A link to it opens the conversation with the page around it as its first and only page (the latest
  // page is not fetched first).
  await alice.page.getByRole("complementary", { name: "Pinned" }).getByRole("button", { name: "Jump to message" }).click();
  const targetId = (await article(alice.page, "the decision we took").getAttribute("id"))?.replace(/^message-/, "") ?? "";
  expect(targetId).toMatch(/^[a-z0-9]{15}$/);
  await alice.page.goto("about:blank");
  const opened: string[] = [];
  alice.page.on("request", (r) => {
    if (r.url().includes(`/api/channels/${channelId}/messages`)) opened.push(r.url());
  });
  await alice.page.goto(`${process.env.E2E_BASE_URL}/#message=${channelId}/${targetId}/${Date.now()}`);
  await expect(alice.page.locator(`#message-${targetId}`)).toHaveClass(/highlight/, { timeout: 20_000 });
  await expect(alice.page.locator(`#message-${targetId}`)).toBeInViewport();
  expect(opened.filter((u) => u.includes("around=")).length).toBe(1);
  expect(opened.filter((u) => !/[?&](around|after|before)=/.test(u))).toEqual([]);
  await alice.context.close();
});
