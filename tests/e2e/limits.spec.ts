import { randomBytes } from "node:crypto";
import { startPocketBase, type RunningPocketBase } from "../integration/pocketbase";
import { expect, signIn, test } from "./fixtures";
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

test("a device beyond the account's 20 is told why it has no keys for new conversations", async ({ browser }) => {
  test.setTimeout(120_000);
  const dora = await person(browser, "dora", web.url);
  // twenty other devices of the account already hold key packages (sent as those devices would)
  const statuses = await dora.page.evaluate(async () => {
    const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";
    const fake = () => btoa(String(Math.random())).replace(/[^A-Za-z0-9]/g, "A");
    const sent: number[] = [];
    for (let n = 0; n < 20; n++) {
      const res = await fetch("/api/key-packages", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ device: `other-device-${n}-${Date.now()}`, oneTime: [fake()], lastResort: fake() }),
      });
      sent.push(res.status);
    }
    return sent;
  });
  expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(19);

  // one more browser signs in: its keys for new conversations are refused, and it says why
  const context = await browser.newContext({ baseURL: web.url });
  const page = await context.newPage();
  await signIn(page, dora.user);
  await expect(
    page.getByRole("alert").filter({
      hasText:
        "This account already has keys for 20 devices, the most it can have. A device that has not been used for 30 days gives up its place.",
    }),
  ).toBeVisible({ timeout: 30_000 });
  await context.close();
  await dora.context.close();
});
