import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { bobOnAPhoneJoins } from "./phone-helpers";
import { log, person, send } from "./helpers";
import { openThread, reply } from "./thread-helpers";

// A thread whose first message is long, with many replies: its replies are read below the root (they
// scroll together, the reply box stays), it opens on the newest reply and follows the ones that come,
// on a laptop and on a phone, where the box keeps the focus after Send (the keyboard stays up), as the
// conversation's box does.

/** Whether the element is on screen and not covered: what a person at the screen sees. */
const seen = (target: Locator) =>
  target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    if (box.bottom <= 0 || box.top >= innerHeight) return false;
    const at = document.elementFromPoint(box.left + Math.min(10, box.width / 2), Math.max(0, box.top) + Math.min(box.height, 10) / 2);
    return at !== null && (element === at || element.contains(at));
  });

test("a long thread under a long first message is read from its newest reply, on a laptop and on a phone", async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const { context, page } = await bobOnAPhoneJoins(browser, alice, `Long Thread ${Date.now() % 1000}`);
  await send(alice.page, `The plan. ${"Each team writes its part of the plan and sends it before Friday. ".repeat(30)}END-OF-PLAN`);
  const panel = await openThread(alice.page, "END-OF-PLAN");
  for (let i = 1; i <= 12; i++) await reply(panel, `answer number ${i}`);
  const replies = panel.getByRole("list", { name: "Replies" });
  await expect.poll(() => seen(replies.getByText("answer number 12"))).toBe(true);

  // On the phone: the thread opens on its newest reply, below the long first message.
  await log(page)
    .getByRole("article")
    .filter({ hasText: "END-OF-PLAN" })
    .getByRole("button", { name: /^12 replies/ })
    .tap({ timeout: 30_000 });
  const thread = page.getByRole("complementary", { name: "Thread" });
  const phoneReplies = thread.getByRole("list", { name: "Replies" });
  await expect(phoneReplies.getByText("answer number 12")).toBeAttached({ timeout: 20_000 });
  await expect.poll(() => seen(phoneReplies.getByText("answer number 12"))).toBe(true);
  await expect.poll(() => seen(thread.getByLabel("Reply in thread"))).toBe(true);
  // scrolled up, every reply can be reached (the list is not squeezed to nothing by the root)
  await thread.locator(".thread-body").evaluate((body) => (body.scrollTop = 0));
  await expect.poll(() => seen(thread.getByRole("article", { name: /^Thread started by/ }))).toBe(true);
  await phoneReplies.getByText("answer number 1", { exact: true }).scrollIntoViewIfNeeded();
  await expect.poll(() => seen(phoneReplies.getByText("answer number 1", { exact: true }))).toBe(true);
  await thread.locator(".thread-body").evaluate((body) => (body.scrollTop = body.scrollHeight));

  // A reply that comes while Bob is at the end is shown; his own, sent with a tap on Send, too, and
  // the box keeps the focus.
  await reply(panel, "answer number 13");
  await expect.poll(() => seen(phoneReplies.getByText("answer number 13"))).toBe(true);
  const box = thread.getByLabel("Reply in thread");
  await box.tap();
  await box.fill("bob agrees, from the train");
  await thread.getByRole("button", { name: "Send reply" }).tap();
  await expect(phoneReplies.getByText("bob agrees, from the train")).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => seen(phoneReplies.getByText("bob agrees, from the train"))).toBe(true);
  await expect(box).toBeFocused();

  // Back in the conversation, its box keeps the focus after a tap on Send too.
  await page.goBack();
  await expect(thread).toBeHidden();
  const message = page.getByLabel("Message", { exact: true });
  await message.tap();
  await message.fill("and one more for everyone");
  await page.getByRole("button", { name: "Send", exact: true }).tap();
  await expect(log(page).getByText("and one more for everyone")).toBeVisible({ timeout: 20_000 });
  await expect(message).toBeFocused();
  await context.close();
});
