import { expect, NO_ANSWER, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send, waitLive } from "./helpers";
import { confirmFile } from "./send-file";

test("a reader scrolled up stays put while messages arrive, and Jump to latest counts them; day separator; links", async ({ browser }) => {
  test.setTimeout(120_000); // 36 messages sent one by one through the page
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `shape-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Long Talk", password);
  await joinAndOpen(bob.page, channelId, password, "Long Talk");
  await waitLive(alice.page);
  for (let i = 0; i < 30; i++) await send(alice.page, `filler line ${i}\nwith a second line to take room`);
  await send(alice.page, "read https://example.com/docs?x=1 and never javascript:alert(1)");
  await expect(log(bob.page).getByText("filler line 29")).toBeVisible();

  // Bob scrolls up; five messages arrive; he stays where he is and the button counts them.
  const list = log(bob.page);
  await list.evaluate((el) => (el.scrollTop = 0));
  const before = await list.evaluate((el) => el.scrollTop);
  for (let i = 0; i < 5; i++) await send(alice.page, `new while scrolled up ${i}`);
  await expect(bob.page.getByRole("button", { name: "Jump to latest (5)" })).toBeVisible();
  expect(await list.evaluate((el) => el.scrollTop)).toBe(before);
  await bob.page.getByRole("button", { name: "Jump to latest (5)" }).click();
  await expect(log(bob.page).getByText("new while scrolled up 4")).toBeInViewport();
  await expect(bob.page.getByRole("button", { name: /Jump to latest/ })).toHaveCount(0);

  // The conversation's shape: a day separator, and links only for http(s).
  await expect(log(bob.page).getByRole("separator", { name: "Today" })).toHaveCount(1);
  const link = log(bob.page).getByRole("link", { name: "https://example.com/docs?x=1" });
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  await expect(log(bob.page).getByRole("link", { name: /javascript/ })).toHaveCount(0);
  await alice.context.close();
  await bob.context.close();
});

test("messages that arrive together while the reader is scrolled up are each counted in Jump to latest", async ({
  browser,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  consoleErrors.allow(NO_ANSWER);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `together-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Together", password);
  await joinAndOpen(bob.page, channelId, password, "Together");
  await waitLive(alice.page);
  for (let i = 0; i < 20; i++) await send(alice.page, `filler line ${i}\nwith a second line to take room`);
  await expect(log(bob.page).getByText("filler line 19")).toBeVisible();

  // Bob is scrolled up while three messages come, his page slowed down (a busy phone): they reach his
  // list in one go, and the button counts three, not one.
  const list = log(bob.page);
  await list.evaluate(
    (el) =>
      new Promise((done) => {
        el.addEventListener("scroll", done, { once: true });
        el.scrollTop = 0;
      }),
  );
  const cdp = await bob.context.newCDPSession(bob.page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 40 });
  for (let i = 0; i < 3; i++) await send(alice.page, `written while bob is busy ${i}`);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await expect(log(bob.page).getByText("written while bob is busy 2")).toBeAttached({ timeout: 30_000 });
  await expect(bob.page.getByRole("button", { name: "Jump to latest (3)" })).toBeVisible();
  await alice.context.close();
  await bob.context.close();
});

test("a file dropped on or pasted into the composer is sent", async ({ browser }) => {
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "Drops", `drops-${Date.now()}`);
  const composer = alice.page.locator("form.composer");
  const dropped = await alice.page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.items.add(new File(["dropped text"], "dropped.txt", { type: "text/plain" }));
    return data;
  });
  await composer.dispatchEvent("drop", { dataTransfer: dropped });
  await confirmFile(alice.page);
  await expect(log(alice.page).getByRole("button", { name: "Download dropped.txt" })).toBeVisible({ timeout: 20_000 });

  await alice.page.getByLabel("Message", { exact: true }).evaluate((box) => {
    const data = new DataTransfer();
    data.items.add(new File(["pasted text"], "pasted.txt", { type: "text/plain" }));
    box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await confirmFile(alice.page);
  await expect(log(alice.page).getByRole("button", { name: "Download pasted.txt" })).toBeVisible({ timeout: 20_000 });
  await alice.context.close();
});
