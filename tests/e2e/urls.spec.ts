import type { Page, Request } from "@playwright/test";
import { expect, newUser, test } from "./fixtures";
import {
  createChannel,
  createSealed,
  joinAndOpen,
  keyPackagesSent,
  log,
  openConversation,
  person,
  send,
  startConversation,
  waitLive,
} from "./helpers";

// A URL per conversation (ADR 0061): the address names the open conversation and thread, reloads
// and Back/Forward follow it, and an address for a conversation the person cannot read says so.

const BASE = process.env.E2E_BASE_URL;
const NOT_AVAILABLE = "This conversation is not available to you.";
const article = (page: Page, text: string) => log(page).getByRole("article").filter({ hasText: text });
const heading = (page: Page, name: string) => page.getByRole("heading", { name: `# ${name}` });
const threadPanel = (page: Page) => page.getByRole("complementary", { name: "Thread" });

/**
 * What a page tells its server from now on: each request's method, address and headers. The app's own
 * code chunks (/assets/, the same files for everyone, loaded when a part of the page is first shown)
 * name nothing of what is open.
 */
function serverCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on("request", (r: Request) => {
    const url = new URL(r.url());
    if (url.origin === new URL(BASE!).origin && !url.pathname.startsWith("/assets/"))
      calls.push(`${r.method()} ${r.url()} ${JSON.stringify(r.headers())}`);
  });
  return calls;
}

test("reload keeps the conversation and its thread; Back and Forward move between conversations and a thread, asking the server nothing", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const { page } = alice;
  const one = `Url One ${Date.now() % 100000}`;
  const two = `Url Two ${Date.now() % 100000}`;
  const oneId = await createChannel(page, one, `urls-${Date.now()}`);
  await expect(page).toHaveURL(`${BASE}/c/${oneId}`);
  await send(page, "the root of a thread");
  const twoId = await createChannel(page, two, `urls-${Date.now()}-2`);
  await expect(page).toHaveURL(`${BASE}/c/${twoId}`);
  await expect(page).toHaveTitle(`${two} · ChatCrypt`);

  // Back to the first conversation from the list, then its thread.
  await page.getByRole("button", { name: `# ${one}`, exact: true }).click();
  await expect(page).toHaveURL(`${BASE}/c/${oneId}`);
  await expect(page).toHaveTitle(`${one} · ChatCrypt`);
  await article(page, "the root of a thread").hover();
  await article(page, "the root of a thread").getByRole("button", { name: "More" }).click();
  await page.getByRole("menuitem", { name: "Reply in thread" }).click();
  await expect(threadPanel(page)).toBeVisible();
  const rootId = (await article(page, "the root of a thread").getAttribute("id"))!.replace(/^message-/, "");
  await expect(page).toHaveURL(`${BASE}/c/${oneId}/t/${rootId}`);

  // A reload reopens the same conversation with the same thread.
  await page.reload();
  await expect(heading(page, one)).toBeVisible({ timeout: 20_000 });
  await expect(threadPanel(page).getByText("the root of a thread")).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveTitle(`${one} · ChatCrypt`);
  await waitLive(page);

  // Back and Forward: the view follows the address, and nothing is asked of the server about it.
  const calls = serverCalls(page);
  await page.goBack();
  await expect(page).toHaveURL(`${BASE}/c/${oneId}`);
  await expect(threadPanel(page)).toBeHidden();
  await expect(heading(page, one)).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(`${BASE}/c/${twoId}`);
  await expect(heading(page, two)).toBeVisible();
  await expect(page).toHaveTitle(`${two} · ChatCrypt`);
  await page.goForward();
  await expect(heading(page, one)).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(`${BASE}/c/${oneId}/t/${rootId}`);
  await expect(threadPanel(page).getByText("the root of a thread")).toBeVisible();
  // closing the thread is a move too
  await threadPanel(page).getByRole("button", { name: "Close thread" }).click();
  await expect(page).toHaveURL(`${BASE}/c/${oneId}`);
  await page.goBack();
  await expect(threadPanel(page)).toBeVisible();
  // only what opening a conversation always asked (its history, its read mark), and the icon the
  // browser asks for again when the address changes; no request names the address
  expect(calls.filter((c) => !/^(GET|POST) \S+\/api\//.test(c) && !/^GET \S+\/favicon\.svg /.test(c))).toEqual([]);
  expect(calls.filter((c) => c.includes("/c/") || c.includes("__manifest") || c.includes(".data"))).toEqual([]);

  // A second page of the same browser opens a conversation by its address directly.
  const second = await alice.context.newPage();
  await second.goto(`/c/${twoId}`);
  await expect(heading(second, two)).toBeVisible({ timeout: 20_000 });
  await expect(second.getByRole("region", { name: "No channel selected" })).toHaveCount(0);
  await second.close();
});

test("an address for a conversation the person cannot read says so, and asks nothing about it", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const name = `Url Private ${Date.now() % 100000}`;
  const id = await createChannel(alice.page, name, `urls-${Date.now()}`);
  await send(alice.page, "only for members");

  const asked: string[] = [];
  bob.page.on("request", (r) => {
    if (r.url().includes(id) && r.resourceType() !== "document") asked.push(r.url());
  });
  // (an address that cannot be decoded, a link cut or mistyped, too: it was a bare JSON error)
  for (const path of [
    `/c/${id}`,
    `/c/${id}/m/abcdefghijklmno`,
    "/c/not-a-conversation",
    "/c/%3Cscript%3E/x",
    `/c/${"z".repeat(300)}`,
    "/c/%E0%A4%A",
    "/c/%ZZ",
    `/c/${id}/t/%E0%A4%A`,
  ]) {
    await bob.page.goto(path);
    await expect(bob.page.getByRole("heading", { name: NOT_AVAILABLE })).toBeVisible({ timeout: 20_000 });
    await expect(bob.page.getByText(name)).toHaveCount(0);
    await expect(bob.page.getByText("only for members")).toHaveCount(0);
  }
  expect(asked).toEqual([]);
  // the list is still there to pick from
  await bob.page.goto("/");
  await expect(bob.page.getByRole("heading", { name: NOT_AVAILABLE })).toHaveCount(0);
});

test("signed out, a conversation's address leads through sign-in to that conversation", async ({ browser }) => {
  const user = newUser("alice");
  const alice = await person(browser, "alice", BASE, user);
  const name = `Url Later ${Date.now() % 100000}`;
  const id = await createChannel(alice.page, name, `urls-${Date.now()}`);
  await send(alice.page, "read after signing in");

  const context = await browser.newContext({ baseURL: BASE });
  const page = await context.newPage();
  await page.goto(`/c/${id}`);
  await expect(page.getByRole("heading", { name: "Sign In" })).toBeVisible();
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(heading(page, name)).toBeVisible({ timeout: 30_000 });
  await expect(article(page, "read after signing in")).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(`${BASE}/c/${id}`);
  await context.close();
});

test("a direct conversation and a sealed channel open by their addresses", async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  // they share a channel: the picker offers them to each other
  const password = `urls-${Date.now()}`;
  await joinAndOpen(bob.page, await createChannel(alice.page, `Url Team ${Date.now() % 100000}`, password), password, "Url Team");
  await keyPackagesSent(bob);
  const sealedName = `Url Sealed ${Date.now() % 100000}`;
  const sealedId = await createSealed(alice.page, sealedName, `urls-${Date.now()}`);
  await send(alice.page, "sealed words");
  await expect(alice.page).toHaveURL(`${BASE}/c/${sealedId}`);

  await startConversation(alice.page, [bob.user.username]);
  await openConversation(alice.page, bob.user.username);
  await send(alice.page, "direct words");
  const directUrl = alice.page.url();
  expect(directUrl).toMatch(new RegExp(`^${BASE}/c/[A-Za-z0-9-]+$`));
  expect(directUrl).not.toBe(`${BASE}/c/${sealedId}`);
  await expect(alice.page).toHaveTitle(`${bob.user.username} · ChatCrypt`);

  for (const [url, title, text] of [
    [`${BASE}/c/${sealedId}`, `# ${sealedName}`, "sealed words"],
    [directUrl, `@ ${bob.user.username}`, "direct words"],
  ]) {
    const page = await alice.context.newPage();
    await page.goto(url);
    await expect(page.getByRole("heading", { name: title })).toBeVisible({ timeout: 20_000 });
    await expect(article(page, text)).toBeVisible({ timeout: 30_000 });
    await page.close();
  }
});

test("on a phone, Back from a conversation opened from the list shows the list again", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const { page } = alice;
  const name = `Url Phone ${Date.now() % 100000}`;
  const id = await createChannel(page, name, `urls-${Date.now()}`);
  await page.goto("/");
  await page.setViewportSize({ width: 390, height: 844 });
  const toggle = page.getByRole("button", { name: "Show channels" });
  const item = page.getByRole("button", { name: `# ${name}`, exact: true });
  await toggle.click();
  await item.click();
  await expect(page).toHaveURL(`${BASE}/c/${id}`);
  await expect(heading(page, name)).toBeVisible({ timeout: 20_000 });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await page.goBack();
  await expect(page).toHaveURL(`${BASE}/`);
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(item).toBeVisible();
  await page.goForward();
  await expect(heading(page, name)).toBeVisible();
});
