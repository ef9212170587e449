import { randomBytes } from "node:crypto";
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

test("messages sent while a member's connection is down, or while PocketBase restarts, arrive once each, in order", async ({
  browser,
  consoleErrors,
}) => {
  // (a connection goes down and PocketBase restarts on purpose)
  consoleErrors.allow(NO_ANSWER);
  test.setTimeout(120_000);
  const alice = await person(browser, "alice", webA.url);
  const bob = await person(browser, "bob", webB.url);
  const password = `reliable-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Reliable", password);
  await joinAndOpen(bob.page, channelId, password, "Reliable");
  await send(alice.page, "before");
  await expect(log(bob.page).getByText("before")).toBeVisible();

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
