import type { BrowserContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  colleague,
  copyInviteLink,
  createChannel,
  createSealed,
  joinAndOpen,
  log,
  openConversation,
  person,
  send,
  startConversation,
  waitInGroup,
  waitLive,
} from "./helpers";

// An ordinary first day (a channel, colleagues through its invite, a one-to-one, a group, a sealed
// channel, reloads) asks nothing the server answers with an error: each such answer is an error line in
// the browser's console, which people who open it take for a fault. (The console fixture lets 4xx lines
// pass in other tests, where refusals are the point.)

test("an ordinary first day: no request answered with an error, no error in the console", async ({ browser }) => {
  test.setTimeout(240_000);
  const refused: string[] = [];
  const watch = (who: string, context: BrowserContext) => {
    context.on("response", (r) => {
      if (r.status() >= 400) refused.push(`${who}: ${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    context.on("console", (m) => m.type() === "error" && refused.push(`${who}'s console: ${m.text()}`));
  };
  const alice = await person(browser, "alice");
  watch("alice", alice.context);
  const name = `Ops${Date.now() % 100_000}`;
  await createChannel(alice.page, name, `ops-${Date.now()}`);
  const link = await copyInviteLink(alice.page);
  const bob = await colleague(browser, "bob", link, name);
  watch("bob", bob.context);
  const carol = await colleague(browser, "carol", link, name);
  watch("carol", carol.context);
  await send(alice.page, "hello channel");
  await expect(log(bob.page).getByText("hello channel")).toBeVisible({ timeout: 30_000 });

  // A one-to-one and a group, each started, written in and read.
  await startConversation(alice.page, [bob.user.username]);
  await waitLive(alice.page);
  await send(alice.page, "hi bob");
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText("hi bob")).toBeVisible({ timeout: 30_000 });
  await startConversation(alice.page, [bob.user.username, carol.user.username], "Trio");
  await waitLive(alice.page);
  await send(alice.page, "hi both");
  await carol.page.getByRole("button", { name: /Trio/ }).first().click();
  await expect(log(carol.page).getByText("hi both")).toBeVisible({ timeout: 30_000 });

  // A sealed channel, made and joined.
  const vaultPassword = `vault-${Date.now()}`;
  const vaultId = await createSealed(alice.page, "Vault", vaultPassword);
  await joinAndOpen(bob.page, vaultId, vaultPassword, "Vault");
  for (const p of [alice.page, bob.page]) await waitInGroup(p);
  await send(bob.page, "sealed hello");
  await expect(log(alice.page).getByText("sealed hello")).toBeVisible({ timeout: 30_000 });

  // Everyone reloads; the open conversation comes back live.
  for (const p of [alice.page, bob.page, carol.page]) {
    await p.reload();
    await waitLive(p);
  }
  expect(refused).toEqual([]);
});
