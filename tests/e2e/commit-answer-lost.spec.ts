import { expect, signIn, test } from "./fixtures";
import { aliceAndBobInDm } from "./dm-helpers";
import { openDetail, securityCode } from "./header-helpers";
import { log, openConversation, send } from "./helpers";

// A commit the server took whose answer never reached the page (the connection dropped on the way
// back). The page cannot process its own commit: it used to say the keys could not be updated, join
// the group again as a new leaf ("This device rejoined..."), and never read what Bob sent in the epoch
// its commit had started.

test("Update keys whose answer is lost on the way back: the keys are new, nobody rejoins, and Bob's message sent right after is read", async ({
  browser,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  // (the dropped answer is logged by the browser as a failed request)
  consoleErrors.allow(/Failed to load resource|ERR_CONNECTION_RESET/);
  const { alice, bob } = await aliceAndBobInDm(browser);
  await send(alice.page, "before the new keys");
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText("before the new keys")).toBeVisible({ timeout: 30_000 });
  const before = await securityCode(bob.page, "Participants");

  // The server takes Alice's commit; its answer is dropped (once).
  let taken = 0;
  await alice.page.route("**/api/sealed/*/commits", async (route) => {
    if (route.request().method() !== "POST" || taken > 0) return route.fallback();
    const response = await route.fetch();
    expect(response.status()).toBe(200);
    taken++;
    return route.abort("connectionreset");
  });
  await openDetail(alice.page, "Participants");
  const panel = alice.page.getByRole("complementary", { name: "Participants" });
  const update = panel.getByRole("button", { name: "Update keys" });
  await update.click();
  await expect.poll(() => taken, { timeout: 20_000 }).toBe(1);
  await expect(update).toBeEnabled({ timeout: 30_000 });
  await expect(alice.page.getByText("The conversation's keys could not be updated. Please try again.")).toHaveCount(0);
  await alice.page.getByRole("button", { name: "Close participants" }).click();

  // Bob, in the epoch Alice's commit started, writes at once; then each writes again.
  await send(bob.page, "bob right after the new keys");
  await expect(log(alice.page).getByText("bob right after the new keys")).toBeVisible({ timeout: 30_000 });
  await send(alice.page, "alice after the new keys");
  await expect(log(bob.page).getByText("alice after the new keys")).toBeVisible({ timeout: 30_000 });
  for (const page of [alice.page, bob.page]) {
    await expect(page.getByText(/rejoined|could not be read/)).toHaveCount(0);
  }
  const after = await securityCode(alice.page, "Participants");
  expect(after).not.toBe(before);
  expect(await securityCode(bob.page, "Participants")).toBe(after);
});

test("a new device whose join of a direct conversation is taken but its answer lost: it opens the conversation all the same, with its keys", async ({
  browser,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  consoleErrors.allow(/Failed to load resource|ERR_CONNECTION_RESET|could not be opened/);
  const { alice, bob } = await aliceAndBobInDm(browser);
  await send(alice.page, "before the laptop");
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText("before the laptop")).toBeVisible({ timeout: 30_000 });

  // Alice's new laptop: the server takes its join (an external commit); the answer is dropped (once).
  const laptop = await (await browser.newContext({ baseURL: process.env.E2E_BASE_URL })).newPage();
  let taken = 0;
  await laptop.route("**/api/sealed/*/external-join", async (route) => {
    if (taken > 0) return route.fallback();
    await route.fetch();
    taken++;
    return route.abort("connectionreset");
  });
  await signIn(laptop, alice.user);
  await openConversation(laptop, bob.user.username);
  await expect.poll(() => taken, { timeout: 30_000 }).toBe(1);

  // The conversation is open on the laptop: its security code is the group's, and both read each other.
  await expect
    .poll(async () => (await securityCode(laptop, "Participants")) === (await securityCode(bob.page, "Participants")), { timeout: 30_000 })
    .toBe(true);
  await send(bob.page, "bob to both of alice's devices");
  await expect(log(laptop).getByText("bob to both of alice's devices")).toBeVisible({ timeout: 30_000 });
  await send(laptop, "from the laptop");
  await expect(log(bob.page).getByText("from the laptop")).toBeVisible({ timeout: 30_000 });
  await expect(log(alice.page).getByText("from the laptop")).toBeVisible({ timeout: 30_000 });
  for (const page of [laptop, alice.page, bob.page]) await expect(page.getByText(/could not be read/)).toHaveCount(0);
});

test("Update keys whose tab closes before the answer: the next tab goes on with the new keys, nobody rejoins, and Bob's message sent right after is read", async ({
  browser,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  consoleErrors.allow(/Failed to load resource/);
  const { alice, bob } = await aliceAndBobInDm(browser);
  await send(alice.page, "before the tab closes");
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText("before the tab closes")).toBeVisible({ timeout: 30_000 });
  const before = await securityCode(bob.page, "Participants");

  // The server takes Alice's commit; its answer is held until her tab has closed.
  let taken = 0;
  await alice.page.route("**/api/sealed/*/commits", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    await route.fetch();
    taken++;
    await new Promise(() => undefined);
  });
  await openDetail(alice.page, "Participants");
  await alice.page.getByRole("complementary", { name: "Participants" }).getByRole("button", { name: "Update keys" }).click();
  await expect.poll(() => taken, { timeout: 20_000 }).toBe(1);
  await alice.page.unrouteAll({ behavior: "ignoreErrors" });
  await alice.page.close();

  // Bob, in the epoch Alice's commit started, writes at once; Alice opens a new tab on the same device.
  await expect.poll(async () => (await securityCode(bob.page, "Participants")) !== before, { timeout: 30_000 }).toBe(true);
  await send(bob.page, "bob while alice's tab is closed");
  const tab = await alice.context.newPage();
  await tab.goto("/");
  await openConversation(tab, bob.user.username);
  await expect(log(tab).getByText("bob while alice's tab is closed")).toBeVisible({ timeout: 30_000 });
  await send(tab, "alice from her new tab");
  await expect(log(bob.page).getByText("alice from her new tab")).toBeVisible({ timeout: 30_000 });
  for (const page of [tab, bob.page]) await expect(page.getByText(/rejoined|could not be read/)).toHaveCount(0);
  expect(await securityCode(tab, "Participants")).toBe(await securityCode(bob.page, "Participants"));
});

test("Update keys whose answer comes but whose tab dies before it keeps the new keys: the next page goes on with them, nobody rejoins", async ({
  browser,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  consoleErrors.allow(/QuotaExceededError|could not be updated|could not be kept/);
  const { alice, bob } = await aliceAndBobInDm(browser);
  await send(alice.page, "before the tab dies");
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText("before the tab dies")).toBeVisible({ timeout: 30_000 });
  const before = await securityCode(bob.page, "Participants");

  // From the moment the server's answer to Alice's commit arrives, her tab stores no group state any
  // more (as a tab closed, or a full storage, at that moment would).
  await alice.page.evaluate(() => {
    const w = window as unknown as { __dead?: boolean };
    const fetched = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const response = await fetched(input, init);
      if (String(input).match(/\/api\/sealed\/[^/]+\/commits$/) && init?.method === "POST" && response.ok) w.__dead = true;
      return response;
    };
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key: string, value: string) {
      if (w.__dead && key.startsWith("chatcrypt.sealed.")) throw new DOMException("The storage is full.", "QuotaExceededError");
      return setItem.call(this, key, value);
    };
  });
  await openDetail(alice.page, "Participants");
  const answered = alice.page.waitForResponse((r) => /\/api\/sealed\/[^/]+\/commits$/.test(r.url()) && r.request().method() === "POST");
  await alice.page.getByRole("complementary", { name: "Participants" }).getByRole("button", { name: "Update keys" }).click();
  expect((await answered).status()).toBe(200);
  await expect.poll(async () => (await securityCode(bob.page, "Participants")) !== before, { timeout: 30_000 }).toBe(true);

  // Bob writes in the epoch Alice's commit started; Alice's next page reads it and answers.
  await send(bob.page, "bob after the tab died");
  await alice.page.reload();
  await openConversation(alice.page, bob.user.username);
  await expect(log(alice.page).getByText("bob after the tab died")).toBeVisible({ timeout: 30_000 });
  await send(alice.page, "alice from her next page");
  await expect(log(bob.page).getByText("alice from her next page")).toBeVisible({ timeout: 30_000 });
  for (const page of [alice.page, bob.page]) await expect(page.getByText(/rejoined|could not be read/)).toHaveCount(0);
  expect(await securityCode(alice.page, "Participants")).toBe(await securityCode(bob.page, "Participants"));
});
