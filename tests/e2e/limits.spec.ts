import { randomBytes } from "node:crypto";
import { startPocketBase, type RunningPocketBase } from "../integration/pocketbase";
import { expect, test } from "./fixtures";
import { createChannel, log, person, send } from "./helpers";
import { startWeb, type WebServer } from "./stack";

// A 429 in the page is a message, never an uncaught error (docs/decisions/0068-caps-per-account.md).
// This file runs its own PocketBase with rate limits on for loopback (the shared stack exempts it),
// and its own web server.
let pb: RunningPocketBase;
let web: WebServer;

test.beforeAll(async () => {
  pb = await startPocketBase({ rateLimits: true });
  web = await startWeb(pb.url, { sessionSecret: randomBytes(32).toString("base64url") });
});

test.afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

declare global {
  interface Window {
    flooding?: boolean;
  }
}

test("a device that sends too many requests is told so in a toast, and carries on once it stops", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice", web.url);
  await createChannel(alice.page, "Other", `other-${Date.now()}`);
  await createChannel(alice.page, "Busy", `busy-${Date.now()}`);
  await send(alice.page, "before the flood");

  // Something on this device asks far more than a person does (here a loop in the page), until
  // PocketBase refuses this device's requests.
  await alice.page.evaluate(() => {
    window.flooding = true;
    for (let n = 0; n < 16; n++)
      void (async () => {
        while (window.flooding) await fetch("/api/unread").catch(() => undefined);
      })();
  });
  await expect.poll(() => alice.page.evaluate(async () => (await fetch("/api/unread")).status), { timeout: 30_000 }).toBe(429);

  // The page's own requests meanwhile are refused too: it says why, in words, and nothing is uncaught
  // (the test's fixture fails on any uncaught error or console error in the page).
  await alice.page.getByRole("button", { name: "# Other" }).click();
  await expect(
    alice.page.getByRole("alert").filter({ hasText: "Too many requests from this device. Please wait a moment." }),
  ).toBeVisible();

  // Once the flood stops, the page works as before.
  await alice.page.evaluate(() => (window.flooding = false));
  await alice.page.getByRole("button", { name: "# Busy" }).click();
  await expect(log(alice.page).getByText("before the flood")).toBeVisible({ timeout: 30_000 });
  await send(alice.page, "after the flood");
  await expect(log(alice.page).getByText("after the flood")).toBeVisible();
  await alice.context.close();
});
