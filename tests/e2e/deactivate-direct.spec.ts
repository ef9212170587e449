import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { administrator, changeStatus, openConsole } from "./admin-helpers";
import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, keyPackagesSent, log, openConversation, person, send, startConversation, waitLive } from "./helpers";

// Alice started a one-to-one with Carol, who never opened it, and a group with Carol and Bob; an
// administrator deactivates Carol (ADR 0056). The one-to-one says she was deactivated and ends with her
// removal, before and after a reload; it never offers to let her back in (ADR 0098): a list of members a
// moment old still named her, and "carol started this conversation again ... Let carol back in" showed
// beside "carol was deactivated by an administrator" (a tester, 4 of 4, for about a second).

/** Notes whether the page ever shows a "Let … back in" button from now on, however briefly. */
const watchLetBackIn = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { offeredLetBackIn: boolean };
    w.offeredLetBackIn = false;
    const look = () => {
      if ([...document.querySelectorAll("button")].some((b) => /^Let .+ back in$/.test(b.textContent ?? ""))) w.offeredLetBackIn = true;
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
const offeredLetBackIn = (page: Page) => page.evaluate(() => (window as unknown as { offeredLetBackIn: boolean }).offeredLetBackIn);

test("a one-to-one with a person deactivated never offers to let them back in, and ends with their removal after a reload", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await administrator(browser, "admin");
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const carol = await person(browser, "carol");
  const tag = randomBytes(3).toString("hex");
  const name = `Leavers ${tag}`;
  const channelId = await createChannel(alice.page, name, `leavers-${tag}`);
  for (const p of [bob, carol]) await joinAndOpen(p.page, channelId, `leavers-${tag}`, name);
  await keyPackagesSent(carol);
  await startConversation(alice.page, [bob.user.username, carol.user.username], `Trio ${tag}`);
  await waitLive(alice.page);
  await send(alice.page, "hello trio");
  await startConversation(alice.page, [carol.user.username]);
  await waitLive(alice.page);
  await send(alice.page, "hello carol");
  await carol.context.close();
  await alice.page.getByRole("button", { name: `# ${name}`, exact: true }).click();
  await waitLive(alice.page);

  await openConsole(admin.page);
  await changeStatus(admin.page, carol.user.username, "deactivate");
  const removed = `${carol.user.username} was removed by an administrator`;
  // The group: her devices removed by Alice's page, which says so; Alice mentions her there.
  await openConversation(alice.page, `Trio ${tag}`);
  await expect(log(alice.page).getByText(removed)).toBeVisible({ timeout: 30_000 });
  await send(alice.page, `@${carol.user.username} are you there?`);

  await watchLetBackIn(alice.page);
  await openConversation(alice.page, carol.user.username);
  await expect(
    alice.page
      .getByRole("status")
      .filter({ hasText: `${carol.user.username} was deactivated by an administrator: nothing written here can reach them.` }),
  ).toBeVisible({ timeout: 30_000 });
  await expect(log(alice.page).getByText("hello carol")).toBeVisible({ timeout: 30_000 });
  await expect(log(alice.page).locator(".chat-event, article").last()).toHaveText(removed, { timeout: 30_000 });
  expect(await offeredLetBackIn(alice.page)).toBe(false);

  // After a reload: the same, her removal still the conversation's last line.
  await alice.page.reload();
  await watchLetBackIn(alice.page);
  await openConversation(alice.page, carol.user.username);
  await expect(log(alice.page).getByText("hello carol")).toBeVisible({ timeout: 30_000 });
  await expect(log(alice.page).locator(".chat-event, article").last()).toHaveText(removed);
  await expect(alice.page.getByText(`${carol.user.username} was deactivated by an administrator`)).toBeVisible();
  expect(await offeredLetBackIn(alice.page)).toBe(false);
  for (const p of [admin, alice, bob]) await p.context.close();
});
