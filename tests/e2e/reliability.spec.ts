import { randomBytes } from "node:crypto";
import type { Browser } from "@playwright/test";
import { startPocketBase, type RunningPocketBase } from "../integration/pocketbase";
import { expect, test, NO_ANSWER } from "./fixtures";
import { createChannel, joinAndOpen, log, messageTexts, person, send } from "./helpers";
import { startWeb, type WebServer } from "./stack";

// This file runs its own PocketBase and two web servers (Alice uses one, Bob the other) so that it can
// take Bob's server and PocketBase down without disturbing the other tests.
let pb: RunningPocketBase;
let webA: WebServer;
let webB: WebServer;

test.beforeAll(async () => {
  pb = await startPocketBase();
  const sessionSecret = randomBytes(32).toString("base64url");
  webA = await startWeb(pb.url, { sessionSecret });
  webB = await startWeb(pb.url, { sessionSecret });
});

test.afterAll(async () => {
  await webA?.stop();
  await webB?.stop();
  await pb?.stop();
});

/** Alice on one web server, Bob on the other, in a channel where Alice said "before" and Bob read it. */
async function aliceAndBobApart(browser: Browser, name: string) {
  const alice = await person(browser, "alice", webA.url);
  const bob = await person(browser, "bob", webB.url);
  const password = `${name.toLowerCase()}-${Date.now()}`;
  const channelId = await createChannel(alice.page, name, password);
  await joinAndOpen(bob.page, channelId, password, name);
  await send(alice.page, "before");
  await expect(log(bob.page).getByText("before")).toBeVisible();
  return { alice, bob };
}

test("messages sent while a member's connection is down, or while PocketBase restarts, arrive once each, in order", async ({
  browser,
  consoleErrors,
}) => {
  // (a connection goes down and PocketBase restarts on purpose)
  consoleErrors.allow(NO_ANSWER);
  test.setTimeout(120_000);
  const { alice, bob } = await aliceAndBobApart(browser, "Reliable");

  // Bob's connection goes down: his web server stops while Alice keeps talking.
  await webB.stop();
  for (const text of ["while down 1", "while down 2", "while down 3"]) await send(alice.page, text);
  await webB.start();
  await expect(log(bob.page).getByText("while down 3")).toBeVisible({ timeout: 30_000 });
  expect(await messageTexts(bob.page)).toEqual(["before", "while down 1", "while down 2", "while down 3"]);

  // PocketBase restarts; messages sent right after it is back reach Bob once his stream reconnects.
  await pb.restart();
  for (const text of ["after restart 1", "after restart 2"]) await send(alice.page, text);
  await expect(log(bob.page).getByText("after restart 2")).toBeVisible({ timeout: 30_000 });
  await bob.page.waitForTimeout(1_000);
  expect(await messageTexts(bob.page)).toEqual([
    "before",
    "while down 1",
    "while down 2",
    "while down 3",
    "after restart 1",
    "after restart 2",
  ]);
  expect(await messageTexts(alice.page)).toEqual(await messageTexts(bob.page));

  await alice.context.close();
  await bob.context.close();
});

test("what Bob wrote while his connection was down goes out once it is back, and he still gets everything Alice wrote meanwhile; his page and draft stay", async ({
  browser,
  consoleErrors,
}) => {
  consoleErrors.allow(NO_ANSWER);
  test.setTimeout(120_000);
  const { alice, bob } = await aliceAndBobApart(browser, "Outbox");

  // His server goes away (a restart, a deploy): he writes one message, Alice three, and he starts another.
  await webB.stop();
  await send(bob.page, "bob wrote while down");
  for (const text of ["while down 1", "while down 2", "while down 3"]) await send(alice.page, text);
  const box = bob.page.getByLabel("Message", { exact: true });
  await box.fill("a draft through the outage");
  // A part of the page asked for meanwhile (its code not loaded yet) says it could not load; the page
  // stays (it was replaced by "ChatCrypt cannot be reached", and the draft was lost).
  await bob.page.getByRole("button", { name: "Menu" }).click();
  await bob.page.getByRole("menuitem", { name: "Account" }).click();
  await expect(bob.page.getByRole("alert").filter({ hasText: "This part of ChatCrypt could not be loaded." })).toBeVisible({
    timeout: 20_000,
  });

  // Back: his message goes out once, and he sees Alice's three (the catch-up started after his own
  // message, sent before it, and missed them).
  await webB.start();
  await expect(log(alice.page).getByText("bob wrote while down")).toBeVisible({ timeout: 30_000 });
  await expect(log(bob.page).getByText("while down 3")).toBeVisible({ timeout: 30_000 });
  const texts = await messageTexts(bob.page);
  for (const text of ["before", "while down 1", "while down 2", "while down 3"]) expect(texts).toContain(text);
  expect(texts.filter((text) => text === "bob wrote while down")).toHaveLength(1);
  await expect(box).toHaveValue("a draft through the outage");
  expect(bob.page.url()).not.toContain("offline");

  await alice.context.close();
  await bob.context.close();
});
