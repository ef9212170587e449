import { expect, test } from "./fixtures";
import { createChannel, log, message, person, send } from "./helpers";
import { article, openThread } from "./thread-helpers";

// What a person types goes where they typed it and is never cut or thrown away: a thread's reply stays
// with its thread (it followed into the next thread opened, where Enter posted it), closing the thread
// keeps it; an edit goes on at the end of the message; a text longer than a message holds is kept and
// said so (a paste was cut at 16,000 characters without a word; an edit said "Please try again").

test("a reply being typed stays with its thread, also after Esc; another thread's box starts empty", async ({ browser }) => {
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "Drafts", `drafts-${Date.now()}`);
  await send(alice.page, "budget question");
  await send(alice.page, "holiday plans");
  const panel = await openThread(alice.page, "budget question");
  await panel.getByLabel("Reply in thread").fill("the budget is 40k");
  await openThread(alice.page, "holiday plans");
  await expect(panel.getByRole("article", { name: /^Thread started by/ })).toContainText("holiday plans");
  await expect(panel.getByLabel("Reply in thread")).toHaveValue("");
  await expect(panel.getByRole("button", { name: "Send reply" })).toBeDisabled();

  // Esc closes the thread; its reply is there again when it opens again.
  await openThread(alice.page, "budget question");
  const box = panel.getByLabel("Reply in thread");
  await expect(box).toHaveValue("the budget is 40k");
  await box.press("Escape");
  await expect(panel).toBeHidden();
  await openThread(alice.page, "budget question");
  await expect(panel.getByLabel("Reply in thread")).toHaveValue("the budget is 40k");
  await panel.getByRole("button", { name: "Send reply" }).click();
  await expect(panel.getByRole("list", { name: "Replies" }).getByText("the budget is 40k")).toBeVisible({ timeout: 20_000 });
  await expect(panel.getByLabel("Reply in thread")).toHaveValue("");
  // nothing went to the other thread
  await openThread(alice.page, "holiday plans");
  await expect(panel.getByRole("list", { name: "Replies" }).getByRole("listitem")).toHaveCount(0);

  // Right-to-left text reads right to left (its "?" at the left end), left-to-right text as before.
  await send(alice.page, "שלום, מה שלומך?");
  const direction = (text: string) =>
    log(alice.page)
      .locator(".message-text", { hasText: text })
      .evaluate((el) => getComputedStyle(el).direction);
  expect(await direction("שלום, מה שלומך?")).toBe("rtl");
  expect(await direction("budget question")).toBe("ltr");
});

test("an edit goes on at the end; a text longer than a message holds is kept and said so, never sent cut", async ({ browser }) => {
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "Lengths", `lengths-${Date.now()}`);
  await send(alice.page, "See you at 3");
  const item = article(alice.page, "See you at 3");
  await item.hover();
  await item.getByRole("button", { name: "Edit", exact: true }).click();
  const edit = alice.page.getByLabel("Edit message");
  await edit.pressSequentially(" pm");
  await edit.press("Enter");
  await expect(message(alice.page, "See you at 3 pm")).toBeVisible();

  // A paste of 17,007 characters: all of it stays in the box, Send waits, and the box says why.
  const composer = alice.page.getByLabel("Message", { exact: true });
  const long = `${"x".repeat(17_000)}THE END`;
  await composer.fill(long);
  await expect(composer).toHaveValue(long);
  const said = "This message is 17,007 characters long; a message holds at most 16,000.";
  await expect(alice.page.getByRole("alert").filter({ hasText: said })).toBeVisible();
  await expect(alice.page.getByRole("button", { name: "Send", exact: true })).toBeDisabled();
  await composer.press("Enter");
  await expect(composer).toHaveValue(long);
  // cut to the limit, it goes
  await composer.fill(long.slice(0, 16_000));
  await expect(alice.page.getByRole("alert").filter({ hasText: said })).toHaveCount(0);
  await composer.press("Enter");
  await expect(composer).toHaveValue("");

  // A reply, and an edit, of a snippet within the limit, its quotes and lines escaped in what is
  // encrypted: they go (they failed with "Failed to send message." and "Please try again.").
  const snippet = '{"a":"b"}\n'.repeat(1_598) + "SNIPPET END";
  expect(snippet.length).toBeLessThanOrEqual(16_000);
  const first = article(alice.page, "See you at 3 pm");
  await first.hover();
  await first.getByRole("button", { name: "Reply", exact: true }).click();
  await composer.fill(snippet);
  await composer.press("Enter");
  await expect(composer).toHaveValue("");
  const reply = log(alice.page).getByRole("article").last();
  await expect(reply).toContainText("SNIPPET END");
  await reply.hover();
  await reply.getByRole("button", { name: "Edit", exact: true }).click();
  await edit.fill(snippet.replace("SNIPPET END", "EDITED END"));
  await edit.press("Enter");
  await expect(reply).toContainText("EDITED END");
  await expect(alice.page.getByRole("alert").filter({ hasText: /try again/ })).toHaveCount(0);

  // An edit made too long says so in the box; Save waits.
  const last = log(alice.page).getByRole("article").last();
  await last.hover();
  await last.getByRole("button", { name: "Edit", exact: true }).click();
  await edit.fill(long);
  await expect(last.getByRole("alert")).toHaveText(said);
  await expect(last.getByRole("button", { name: "Save" })).toBeDisabled();
  await edit.press("Escape");
  await expect(edit).toBeHidden();

  // A message the server refuses stays in the box, said so; the words go once the text is changed.
  await alice.page.route(
    (url) => /\/api\/channels\/[^/]+\/messages$/.test(url.pathname),
    (route) =>
      route.request().method() === "POST"
        ? route.fulfill({ status: 422, contentType: "application/json", body: JSON.stringify({ message: "Refused here." }) })
        : route.continue(),
  );
  await composer.fill("a message refused");
  await composer.press("Enter");
  const refused = alice.page.getByRole("alert").filter({ hasText: "Your message was not sent and is still in the box." });
  await expect(refused).toBeVisible({ timeout: 20_000 });
  await expect(composer).toHaveValue("a message refused");
  await composer.press("End");
  await composer.pressSequentially(", changed");
  await expect(refused).toHaveCount(0);
});
