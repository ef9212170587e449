import { apiMember } from "./api-member";
import { expect, test } from "./fixtures";
import { createChannel, log, person, waitLive } from "./helpers";

// A reader at the bottom of a conversation stays there when the list's height changes (the composer
// grows or shrinks a line, the window is resized), also in the same frame as the content grows (a
// picture loads in the last message, older messages join above): the list's own scroll, pulled up
// as it gets taller, is not the reader leaving the bottom.

test("a reader at the bottom stays there when the list gets shorter, and when it gets taller in the frame its last message grows", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const password = `bottom-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Bottom Kept", password);
  await waitLive(alice.page);
  const bob = await apiMember(channelId, password);
  await bob.post(Array.from({ length: 40 }, (_, i) => `line ${i} of the bottom`));
  const lines = log(alice.page).getByRole("article");
  await expect(lines.filter({ hasText: "line 39 of the bottom" })).toBeInViewport();

  const gap = () => log(alice.page).evaluate((list) => list.scrollHeight - list.scrollTop - list.clientHeight);
  await expect.poll(gap).toBeLessThan(2);
  // The list 40 px shorter (the composer grows a line): the newest message stays in view.
  await log(alice.page).evaluate((list) => (list.style.maxHeight = `${list.clientHeight - 40}px`));
  await expect.poll(gap).toBeLessThan(2);

  // One task: the list 40 px taller again, laid out at once (its scrollTop is pulled up by as much),
  // then the last message 600 px taller, as a picture in it would be once loaded.
  const pulled = await log(alice.page).evaluate((list) => {
    const before = list.scrollTop;
    list.style.maxHeight = "";
    const pulled = before - list.scrollTop;
    const last = [...list.querySelectorAll<HTMLElement>("article")].at(-1)!;
    last.style.minHeight = `${last.offsetHeight + 600}px`;
    return pulled;
  });
  expect(pulled).toBeGreaterThan(30);
  await expect.poll(gap).toBeLessThan(2);

  // and the list goes on following what arrives
  await bob.post(["news at the bottom"]);
  await expect(lines.filter({ hasText: "news at the bottom" })).toBeInViewport();
  await expect(alice.page.getByRole("button", { name: /^Jump to latest/ })).toHaveCount(0);
  await alice.context.close();
});
