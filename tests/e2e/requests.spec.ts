import type { Locator, Page } from "@playwright/test";
import { expect, newUser, signUp, test } from "./fixtures";
import { message, person, send, waitLive, type Person } from "./helpers";

// Direct messages with consent (ADR 0052), in the browser with the settings `npm start` uses: a DM
// from someone Bob shares no channel with arrives as a request, and nothing of it shows until he
// accepts; then he reads its first message. Block: her look-up finds nobody, and nothing reaches him.

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** "New message" to this person, found by exact username (they share no channel). */
async function startWith(page: Page, to: Person) {
  await page.getByRole("button", { name: "New message" }).click();
  const dialog = page.getByRole("dialog", { name: "New message" });
  await dialog.getByLabel("Find by username").fill(to.user.username);
  await dialog.getByLabel("Find by username").press("Enter");
  await expect(dialog.getByRole("checkbox", { name: to.user.username })).toBeChecked();
  await dialog.getByRole("button", { name: "Start conversation" }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole("heading", { name: `@ ${to.user.username}` })).toBeVisible();
}

const requestOf = (page: Page, from: Person) => page.getByRole("group", { name: `${from.user.username} wants to message you` });

/** Nothing of these texts anywhere in the page (its whole DOM, hidden parts included). */
async function nowhere(page: Page, ...texts: string[]) {
  const html = await page.content();
  for (const text of texts) expect(html).not.toContain(text);
}

/** The requester's side: she starts the DM, is told she waits for him, and writes her first message (held on her device). */
async function asks(from: Person, to: Person, text: string) {
  await startWith(from.page, to);
  const waiting = `Waiting for ${to.user.username} to accept your request`;
  await expect(from.page.getByRole("status").filter({ hasText: waiting }).first()).toBeVisible({ timeout: 10_000 });
  await waitLive(from.page);
  await send(from.page, text);
  await expect(from.page.getByRole("list", { name: "Messages not sent yet" })).toContainText(waiting);
}

test("a stranger's DM is a request: Bob sees only who asks, accepts, and reads her first message", async ({ browser }) => {
  test.setTimeout(180_000);
  const [bob, mallory] = await Promise.all([person(browser, "bob"), person(browser, "mallory")]);
  await waitLive(bob.page);
  // (her message waits for his Accept: her console does not call it a failure)
  const warned: string[] = [];
  mallory.page.on("console", (m) => m.type() === "warning" && m.text().startsWith("Sending failed") && warned.push(m.text()));
  await asks(mallory, bob, "psst bob, a first message from mallory");

  // Bob's sidebar: the request, live, in these words; nothing of the conversation or its message.
  const asked = requestOf(bob.page, mallory);
  await expect(asked).toBeVisible({ timeout: 10_000 });
  await expect(asked).toHaveText(new RegExp(`^${mallory.user.username} wants to message you`));
  for (const name of ["Accept", "Decline", "Block"]) await expect(asked.getByRole("button", { name })).toBeVisible();
  await expect(bob.page.getByText("No direct messages yet")).toBeVisible();
  await expect(bob.page.getByRole("button", { name: `@ ${mallory.user.username}`, exact: true })).toHaveCount(0);
  await expect(bob.page.getByRole("img", { name: /unread/ })).toHaveCount(0);
  await nowhere(bob.page, "psst bob");

  // Accept: the conversation opens, and Mallory's first message arrives.
  const accepted = Date.now();
  await asked.getByRole("button", { name: "Accept" }).click();
  await expect(bob.page.getByRole("heading", { name: `@ ${mallory.user.username}` })).toBeVisible({ timeout: 15_000 });
  await expect(message(bob.page, "psst bob, a first message from mallory")).toBeVisible({ timeout: 20_000 });
  console.log(`first message read ${Date.now() - accepted} ms after Accept`);
  await expect(asked).toHaveCount(0);
  // Mallory's page: sent, no longer waiting.
  await expect(message(mallory.page, "psst bob, a first message from mallory")).toBeVisible();
  await expect(mallory.page.getByText(`Waiting for ${bob.user.username} to accept your request`)).toHaveCount(0);
  await expect(mallory.page.getByRole("list", { name: "Messages not sent yet" })).toHaveCount(0);
  // And they talk, both ways.
  await waitLive(bob.page);
  await send(bob.page, "hello mallory");
  await expect(message(mallory.page, "hello mallory")).toBeVisible({ timeout: 5_000 });
  await send(mallory.page, "glad you accepted");
  await expect(message(bob.page, "glad you accepted")).toBeVisible({ timeout: 5_000 });
  expect(warned).toEqual([]);
});

test("Block: her request goes, her look-up of Bob finds nobody, nothing of hers reaches him, and Account can unblock her", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [bob, eve] = await Promise.all([person(browser, "bob"), person(browser, "eve")]);
  await waitLive(bob.page);
  await asks(eve, bob, "eve's secret offer");
  const asked = requestOf(bob.page, eve);
  await expect(asked).toBeVisible({ timeout: 10_000 });
  await asked.getByRole("button", { name: "Block" }).click();
  await expect(asked).toHaveCount(0);

  // Eve's next DM: the look-up answers as for a name nobody has.
  await eve.page.getByRole("button", { name: "New message" }).click();
  const dialog = eve.page.getByRole("dialog", { name: "New message" });
  await dialog.getByLabel("Find by username").fill(bob.user.username);
  await dialog.getByLabel("Find by username").press("Enter");
  await expect(dialog.getByRole("status")).toHaveText(`Nobody is called ${bob.user.username}.`);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  // What she writes in the conversation she started stays with her.
  await send(eve.page, "eve writes again");

  // Bob never sees any of it, live or after a reload.
  await bob.page.waitForTimeout(2_000);
  await nowhere(bob.page, "eve's secret", "eve writes again");
  await expect(requestOf(bob.page, eve)).toHaveCount(0);
  await bob.page.reload();
  await waitLive(bob.page);
  await expect(requestOf(bob.page, eve)).toHaveCount(0);
  await expect(bob.page.getByText("No direct messages yet")).toBeVisible();
  await nowhere(bob.page, "eve's secret", "eve writes again");

  // Menu > Account lists her, with Unblock (in a second tab too); then her look-up finds him again.
  const openAccount = async (page: Page) => {
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("menuitem", { name: "Account" }).click();
    const account = page.getByRole("dialog", { name: "Account" });
    await expect(account.getByRole("list", { name: "Blocked people" })).toContainText(eve.user.username);
    return account;
  };
  const secondTab = await bob.context.newPage();
  await secondTab.goto("/");
  const later = await openAccount(secondTab);
  const account = await openAccount(bob.page);
  await account.getByRole("button", { name: `Unblock ${eve.user.username}` }).click();
  await expect(account.getByText(`${eve.user.username} was unblocked.`)).toBeVisible();
  await expect(account.getByText("You have not blocked anyone.")).toBeVisible();
  // The second tab, still listing her: its Unblock is done, not a failure.
  await later.getByRole("button", { name: `Unblock ${eve.user.username}` }).click();
  await expect(later.getByText(`${eve.user.username} was unblocked.`)).toBeVisible();
  await expect(later.getByText("You have not blocked anyone.")).toBeVisible();
  await secondTab.close();
  await eve.page.getByRole("button", { name: "New message" }).click();
  await dialog.getByLabel("Find by username").fill(bob.user.username);
  await dialog.getByLabel("Find by username").press("Enter");
  await expect(dialog.getByRole("checkbox", { name: bob.user.username })).toBeChecked();
});

/**
 * Taps a control after checking that it lies inside the phone's screen (and, for the request's own
 * buttons, that it is big enough for a finger).
 */
async function tap(control: Locator, finger = 0) {
  await control.scrollIntoViewIfNeeded();
  const box = (await control.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.viewport.width + 0.5);
  expect(box.y + box.height).toBeLessThanOrEqual(PHONE.viewport.height + 0.5);
  expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(finger);
  await control.tap();
}

test("on a phone (390x844) the request is read and accepted with controls on the screen", async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, ...PHONE });
  const page = await context.newPage();
  const bobUser = newUser("bob");
  await signUp(page, bobUser);
  const bob: Person = { context, page, user: bobUser, id: "" };
  await waitLive(page);
  const mallory = await person(browser, "mallory");
  await asks(mallory, bob, "hello from a stranger, on your phone");

  const toggle = page.getByRole("button", { name: "Show channels" });
  await tap(toggle);
  const asked = requestOf(page, mallory);
  await expect(asked).toBeVisible({ timeout: 10_000 });
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
  await nowhere(page, "hello from a stranger");
  for (const name of ["Decline", "Block"]) {
    const box = (await asked.getByRole("button", { name }).boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
  }
  await tap(asked.getByRole("button", { name: "Accept" }), 44);
  await expect(page.getByRole("heading", { name: `@ ${mallory.user.username}` })).toBeVisible({ timeout: 15_000 });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(message(page, "hello from a stranger, on your phone")).toBeVisible({ timeout: 20_000 });
});
