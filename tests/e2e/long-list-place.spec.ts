import { apiMember } from "./api-member";
import { expect, test } from "./fixtures";
import { createChannel, log, person, waitLive } from "./helpers";
import { loadEveryPage, firstInView, line, top } from "./long-list-helpers";

// A long list (ADR 36) estimates the height of a row it has not measured yet. Coming back to a channel,
// the reader's place is put back by those estimates; the row of the message at the list's top is then
// measured, and its real height must not move its top (the place is that message's top: ADR 40).

const COUNT = 520;
const TALL = 300;
const tall = Array.from({ length: 12 }, (_, i) => `paragraph ${i} of the tall message`).join("\n\n");

test("a tall message half above the list's top when the reader leaves a long channel is at the same height when she comes back", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const password = `tall-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Tall Read", password);
  await waitLive(alice.page);
  const bob = await apiMember(channelId, password);
  await bob.post(Array.from({ length: COUNT }, (_, i) => (i === TALL ? tall : `line ${i} of the tall read`)));
  await createChannel(alice.page, "Elsewhere", `elsewhere-${Date.now()}`);

  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Tall Read", exact: true }).click();
  await expect(line(alice.page, `line ${COUNT - 1} of`)).toBeInViewport({ timeout: 20_000 });
  await loadEveryPage(alice.page, channelId);

  // The tall message's top half above the list's top.
  const message = line(alice.page, "paragraph 0 of the tall message");
  // (reached going down from above it: row heights are estimates until their rows are measured)
  await log(alice.page).evaluate((list, at) => (list.scrollTop = list.scrollHeight * at), (TALL / COUNT) * 0.8);
  await expect
    .poll(
      async () => (await message.count()) > 0 || void (await log(alice.page).evaluate((list) => (list.scrollTop += list.clientHeight / 2))),
      {
        intervals: [100],
        timeout: 30_000,
      },
    )
    .toBe(true);
  await message.evaluate((article) => {
    const list = article.closest<HTMLElement>('[role="log"]')!;
    const box = article.getBoundingClientRect();
    list.scrollTop += box.top - list.getBoundingClientRect().top + box.height / 2;
  });
  await expect.poll(async () => (await firstInView(alice.page)).text).toContain("paragraph 0 of the tall message");
  await log(alice.page).evaluate((list) => list.dispatchEvent(new Event("scroll")));
  const place = await top(message);

  await alice.page.getByRole("button", { name: "# Elsewhere", exact: true }).click();
  await expect(log(alice.page).getByRole("article")).toHaveCount(0);
  // Back, the conversation shown from memory while its latest page is held back: the place is there
  // before that page, and stays once it has come.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = () => {};
  const latestAsked = new Promise<void>((resolve) => (asked = resolve));
  await alice.page.route(
    (url) => url.pathname === `/api/channels/${channelId}/messages` && !url.searchParams.has("before"),
    async (route) => {
      asked();
      await held;
      await route.continue();
    },
  );
  await alice.page.getByRole("button", { name: "# Tall Read", exact: true }).click();
  await latestAsked;
  await expect(message).toBeAttached();
  await expect.poll(() => top(message)).toBeCloseTo(place, -1);
  release();
  await alice.page.waitForResponse((r) => r.url().includes(`/api/channels/${channelId}/messages`) && r.url().includes("limit="));
  await expect.poll(() => top(message)).toBeCloseTo(place, -1);
  // (and it stays there: every row in view measured, a frame later)
  await alice.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await top(message)).toBeCloseTo(place, -1);
  await alice.context.close();
});
