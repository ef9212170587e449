import type { Browser, Page } from "@playwright/test";
import { expect, NO_ANSWER, signIn, type TestUser } from "./fixtures";
import {
  createChannel,
  joinAndOpen,
  keyPackagesSent,
  log,
  message,
  openConversation,
  person,
  send,
  startConversation,
  waitLive,
} from "./helpers";
import { mailTest as test } from "./mail-stack";
import { oneToOneBothWays, resetOnNewDevice } from "./reset-helpers";
import { keepNothingForOthers } from "./dm-helpers";

// Bob resets his password without a recovery key and writes from his new phone. Alice signs in on a new
// laptop, which joins their one-to-one after his message: it cannot read it (sent before it joined), and
// accepting his new keys there first changes nothing about that. Her old device, closed when he wrote,
// takes that acceptance, reads it once she opens the conversation there, and keeps it in her archive. The laptop showed "Messages sent before this device
// joined the conversation cannot be read here." until a reload; it now reads the archive again as it
// grows (a live event) and shows the message where it belongs. (His phone keeps nothing for her in that
// test; the second one has no page of hers open at all, and his phone keeps his message for her, ADR 0099.)

/** Alice and Bob in a team channel, each device's key packages sent. */
async function inTeam(browser: Browser, url: string, pb: Parameters<typeof keyPackagesSent>[1]) {
  const alice = await person(browser, "alice", url);
  const bob = await person(browser, "bob", url);
  const pw = `team-${Date.now()}`;
  await joinAndOpen(bob.page, await createChannel(alice.page, "Team", pw), pw, "Team");
  await keyPackagesSent(alice, pb);
  await keyPackagesSent(bob, pb);
  return { alice, bob };
}

/** Alice and Bob in a team channel, then in a one-to-one with a message each way. */
async function inTeamAndOneToOne(browser: Browser, url: string, pb: Parameters<typeof keyPackagesSent>[1]) {
  const { alice, bob } = await inTeam(browser, url, pb);
  await oneToOneBothWays(alice, bob, ["alice to bob before", "bob to alice before"]);
  return { alice, bob };
}

async function signedIn(browser: Browser, url: string, user: TestUser): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: url })).newPage();
  await signIn(page, user);
  await expect(page.getByText(`@${user.username}`)).toBeAttached({ timeout: 30_000 });
  return page;
}

test("a new laptop that accepts a reset person's keys first gets his message once her other page reads it, without a reload", async ({
  browser,
  stack,
  consoleErrors,
}) => {
  test.setTimeout(300_000);
  consoleErrors.allow(NO_ANSWER);
  const { smtp, web, pb } = stack;
  const { alice, bob } = await inTeamAndOneToOne(browser, web.url, pb);
  // (her page stays open, on another conversation)
  await alice.page.getByRole("button", { name: "# Team", exact: true }).click();

  await bob.context.close();
  const phone = await resetOnNewDevice(browser, smtp, web.url, bob.user);
  await openConversation(phone, alice.user.username);
  // (his phone keeps nothing of his for Alice, ADR 0099: what reaches her laptop here is what her old page reads)
  await keepNothingForOthers(phone.context());
  // Her page lets his phone in (his reset is told live), and reads what he writes, his keys accepted or
  // not; it is closed (the device keeps what it holds) before he writes on.
  const unsent = phone.getByRole("list", { name: "Messages not sent yet" });
  await send(phone, "bob is back");
  await expect(unsent).toHaveCount(0, { timeout: 30_000 });
  await alice.page.close();
  await send(phone, "bob after his reset");
  await expect(unsent).toHaveCount(0, { timeout: 30_000 });

  const laptop = await signedIn(browser, web.url, alice.user);
  let archiveRead = Date.now();
  laptop.on("request", (request) => {
    if (request.method() === "GET" && new URL(request.url()).pathname.startsWith("/api/archive/")) archiveRead = Date.now();
  });
  await openConversation(laptop, bob.user.username);
  await expect(log(laptop).getByText("alice to bob before")).toBeVisible({ timeout: 30_000 });
  await laptop.getByRole("button", { name: `Accept new keys of ${bob.user.username}` }).click();
  await expect(log(laptop).getByText("bob to alice before")).toBeVisible({ timeout: 30_000 });
  const unreadable = laptop.getByText("Messages sent before this device joined the conversation cannot be read here.");
  await expect(unreadable).toBeVisible({ timeout: 30_000 });
  await expect(log(laptop).getByText("bob after his reset")).toHaveCount(0);
  // (the laptop's own second look at the archive, ten seconds after the first, has come and gone: what
  // follows is not that; a minute later it would look again, at a new message only)
  await expect.poll(() => Date.now() - archiveRead, { timeout: 45_000, intervals: [1_000] }).toBeGreaterThan(12_000);

  // Her old device takes the laptop's acceptance: opened on the conversation, it asks for nothing and
  // reads his message; the laptop shows it, as it is, without a reload.
  const old = await alice.context.newPage();
  await old.goto("/");
  await openConversation(old, bob.user.username);
  await expect(log(old).getByText("bob after his reset")).toBeVisible({ timeout: 30_000 });
  await expect(old.getByRole("button", { name: `Accept new keys of ${bob.user.username}` })).toHaveCount(0);
  await expect(log(laptop).getByText("bob after his reset")).toBeVisible({ timeout: 30_000 });
  await expect(unreadable).toHaveCount(0);
  // and the three write on to each other
  await send(laptop, "alice's laptop writes");
  await expect(log(phone).getByText("alice's laptop writes")).toBeVisible({ timeout: 30_000 });
  await send(phone, "bob answers the laptop");
  await expect(log(laptop).getByText("bob answers the laptop")).toBeVisible({ timeout: 30_000 });
  await expect(log(old).getByText("bob answers the laptop")).toBeVisible({ timeout: 30_000 });
});

test("what a reset person writes reaches the other's new laptop once it accepts his keys, with none of her devices open when he wrote it", async ({
  browser,
  stack,
}) => {
  test.setTimeout(240_000);
  const { smtp, web, pb } = stack;
  const { alice, bob } = await inTeamAndOneToOne(browser, web.url, pb);
  // (Bob's reaction, signed by his key of before, shows before she accepts his new ones; it is not a message)
  // (her page keeps it in her archive, ADR 0048, before her device is put away: a context closed at once
  // takes what still waits, where a tab closed would send it as it goes)
  const archived = new Set<string>();
  alice.page.on("requestfinished", (r) => {
    if (r.method() === "POST" && r.url().includes("/api/archive/"))
      for (const entry of (r.postDataJSON()?.entries ?? []) as { messageId: string }[]) archived.add(entry.messageId);
  });
  const reacted = bob.page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/messages"));
  const hers = message(bob.page, "alice to bob before");
  await hers.hover();
  await hers.getByRole("button", { name: "React", exact: true }).click();
  await bob.page.getByRole("menu", { name: "React with" }).getByRole("menuitem", { name: "👍", exact: true }).click();
  const reaction = ((await (await reacted).json()) as { message: { id: string } }).message.id;
  await expect(message(alice.page, "alice to bob before").getByRole("button", { name: /^👍 1/ })).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => archived.has(reaction), { timeout: 20_000 }).toBe(true);
  // Neither has a page open; Bob resets without his recovery key on a new phone and writes to her.
  await alice.context.close();
  await bob.context.close();
  const phone = await resetOnNewDevice(browser, smtp, web.url, bob.user);
  await openConversation(phone, alice.user.username);
  await send(phone, "bob after his reset, alice away");
  await expect(log(phone).getByText("bob after his reset, alice away")).toBeVisible();

  // Her new laptop: his message waits for her word on his new keys, then shows (ADR 0099: his phone kept it for her).
  const laptop = await signedIn(browser, web.url, alice.user);
  await openConversation(laptop, bob.user.username);
  await expect(log(laptop).getByText("alice to bob before")).toBeVisible({ timeout: 30_000 });
  await expect(log(laptop).getByText("bob after his reset, alice away")).toHaveCount(0);
  // His message from before his reset, signed by the key she accepted then, shows at once, marked, and
  // is not counted among what waits (ADR 0103: it was held back and counted until she accepted)
  await expect(message(laptop, "bob to alice before").getByText(`Signed with ${bob.user.username}'s previous key`)).toBeVisible({
    timeout: 30_000,
  });
  await expect(message(laptop, "alice to bob before").getByRole("button", { name: /^👍 1/ })).toBeVisible({ timeout: 30_000 });
  await expect(laptop.getByText(`1 message from ${bob.user.username} is waiting for you to accept his new keys`)).toBeVisible({
    timeout: 30_000,
  });
  await laptop.getByRole("button", { name: `Accept new keys of ${bob.user.username}` }).click();
  await expect(log(laptop).getByText("bob after his reset, alice away")).toBeVisible({ timeout: 30_000 });
  await expect(message(laptop, "bob to alice before").getByText(`Signed with ${bob.user.username}'s previous key`)).toBeVisible();
  await expect(message(laptop, "alice to bob before").getByRole("button", { name: /^👍 1/ })).toBeVisible({ timeout: 30_000 });
  await expect(laptop.getByText("Messages sent before this device joined the conversation cannot be read here.")).toHaveCount(0);
  await send(laptop, "alice's laptop answers");
  await expect(log(phone).getByText("alice's laptop answers")).toBeVisible({ timeout: 30_000 });
});

test("a reset person's first message in a new one-to-one is counted on the other's new laptop while it waits for her word, then shown", async ({
  browser,
  stack,
}) => {
  test.setTimeout(240_000);
  const { smtp, web, pb } = stack;
  const { alice, bob } = await inTeam(browser, web.url, pb);
  // (her page knows his keys from the team channel: what he writes there)
  await send(bob.page, "bob in the team");
  await expect(log(alice.page).getByText("bob in the team")).toBeVisible({ timeout: 30_000 });
  await alice.context.close();
  await bob.context.close();
  // Bob resets without his recovery key on a new phone and writes to her for the first time.
  const phone = await resetOnNewDevice(browser, smtp, web.url, bob.user);
  await startConversation(phone, [alice.user.username]);
  await waitLive(phone);
  await send(phone, "bob's first words after his reset");
  await expect(log(phone).getByText("bob's first words after his reset")).toBeVisible();

  // Her new laptop: the conversation says what waits for her, not that it is empty.
  const laptop = await signedIn(browser, web.url, alice.user);
  await openConversation(laptop, bob.user.username);
  await expect(laptop.getByText(`1 message from ${bob.user.username} is waiting for you to accept his new keys`)).toBeVisible({
    timeout: 30_000,
  });
  await expect(laptop.getByText("No messages yet. Say hello.")).toHaveCount(0);
  await expect(laptop.getByText("This conversation could not be opened on this device. Please try again.")).toHaveCount(0);
  await laptop.getByRole("button", { name: `Accept new keys of ${bob.user.username}` }).click();
  await expect(log(laptop).getByText("bob's first words after his reset")).toBeVisible({ timeout: 30_000 });
  await send(laptop, "alice's laptop answers his first words");
  await expect(log(phone).getByText("alice's laptop answers his first words")).toBeVisible({ timeout: 30_000 });
});

// Alice's page and her laptop are both open on the one-to-one when Bob resets. She accepts his new
// keys on the page: the laptop takes that at once (a live event; the pins are the user's, on every
// device), its notice goes and it reads what waited. It used to keep the notice, and his message held
// back, until she accepted there too or reloaded.
test("new keys accepted on one device are accepted on the user's other open page, which reads what waited, without a reload", async ({
  browser,
  stack,
  consoleErrors,
}) => {
  test.setTimeout(240_000);
  consoleErrors.allow(NO_ANSWER);
  const { smtp, web, pb } = stack;
  const { alice, bob } = await inTeamAndOneToOne(browser, web.url, pb);
  const laptop = await signedIn(browser, web.url, alice.user);
  await openConversation(laptop, bob.user.username);
  await expect(log(laptop).getByText("alice to bob before")).toBeVisible({ timeout: 30_000 });

  await bob.context.close();
  const phone = await resetOnNewDevice(browser, smtp, web.url, bob.user);
  await openConversation(phone, alice.user.username);
  await send(phone, "bob after his reset");

  const notice = (page: Page) =>
    page.getByRole("alert").filter({ hasText: `${bob.user.username} reset his account: compare his safety number` });
  for (const page of [alice.page, laptop]) await expect(notice(page)).toBeVisible({ timeout: 30_000 });
  await notice(alice.page)
    .getByRole("button", { name: `Accept new keys of ${bob.user.username}` })
    .click();
  await expect(log(alice.page).getByText("bob after his reset")).toBeVisible({ timeout: 30_000 });
  await expect(notice(laptop)).toHaveCount(0, { timeout: 20_000 });
  await expect(log(laptop).getByText("bob after his reset")).toBeVisible({ timeout: 30_000 });
  await send(laptop, "alice's laptop after his reset");
  await expect(log(phone).getByText("alice's laptop after his reset")).toBeVisible({ timeout: 30_000 });
});
