import { apiMember } from "./api-member";
import { expect, test } from "./fixtures";
import { channelWithPin, createChannel, log } from "./helpers";
import { firstInView, line, loadEveryPage, top } from "./long-list-helpers";
import { openDetail } from "./header-helpers";

// A long history (over 500 loaded messages) mounts only the messages in and near view (ADR 36): every
// message is still reached by scrolling, a jump or a pin, and the list keeps the reader's place.

const TOTAL = 701;
test("a history of 701 messages mounts what is in view, loads older pages in place, keeps the place, jumps and follows new ones", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { alice, password, channelId } = await channelWithPin(browser, "Long Read", "the very first word");
  const bob = await apiMember(channelId, password);
  await bob.post(Array.from({ length: TOTAL - 1 }, (_, i) => `line ${i} of the long read`));
  await createChannel(alice.page, "Elsewhere", `elsewhere-${Date.now()}`);

  // A fresh page: the latest 200, then every older page, each loaded at the top without the view jumping.
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Long Read", exact: true }).click();
  await expect(line(alice.page, `line ${TOTAL - 2} of`)).toBeInViewport({ timeout: 20_000 });
  await loadEveryPage(alice.page, channelId);
  const articles = log(alice.page).getByRole("article");
  await expect(articles.first()).toHaveAttribute("aria-setsize", String(TOTAL));
  expect(await articles.count()).toBeLessThan(80);

  // The oldest is reached by scrolling to the top; each article tells its place among all.
  await log(alice.page).evaluate((list) => (list.scrollTop = 0));
  await expect(line(alice.page, "the very first word")).toBeInViewport();
  await expect(line(alice.page, "the very first word")).toHaveAttribute("aria-posinset", "1");

  // Halfway up when Alice leaves: the same message at the same height when she comes back.
  await log(alice.page).evaluate((list) => (list.scrollTop = list.scrollHeight / 2));
  await expect.poll(async () => (await firstInView(alice.page)).text).toMatch(/^line \d+ of the long read$/);
  await log(alice.page).evaluate((list) => list.dispatchEvent(new Event("scroll")));
  const place = await firstInView(alice.page);
  await alice.page.getByRole("button", { name: "# Elsewhere", exact: true }).click();
  await expect(articles).toHaveCount(0);
  await alice.page.getByRole("button", { name: "# Long Read", exact: true }).click();
  await expect.poll(() => top(line(alice.page, place.text))).toBeCloseTo(place.y, -1);

  // A pinned message far up, not on the page, is jumped to and highlighted.
  await log(alice.page).evaluate((list) => (list.scrollTop = list.scrollHeight));
  await expect(line(alice.page, "the very first word")).toHaveCount(0);
  await openDetail(alice.page, "Pinned");
  await alice.page.getByRole("complementary", { name: "Pinned" }).getByRole("button", { name: "Jump to message" }).click();
  await expect(line(alice.page, "the very first word")).toBeInViewport();
  await expect(line(alice.page, "the very first word")).toHaveClass(/highlight/);
  await openDetail(alice.page, "Pinned");

  // Scrolled up, a new message offers "Jump to latest"; at the bottom, new messages come into view and are announced.
  await bob.post(["news while alice reads old lines"]);
  await alice.page.getByRole("button", { name: "Jump to latest (1)" }).click();
  await expect(line(alice.page, "news while alice reads old lines")).toBeInViewport();
  await bob.post(["news at the bottom"]);
  await expect(line(alice.page, "news at the bottom")).toBeInViewport();
  await expect(alice.page.getByText(`Message from ${bob.username}: news at the bottom`)).toBeAttached();
  await expect(articles.first()).toHaveAttribute("aria-setsize", String(TOTAL + 2));
  await alice.context.close();
});
