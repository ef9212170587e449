import { superuserClient } from "../integration/pocketbase";
import { expect, filesContaining, newUser, signOut, signUp, test } from "./fixtures";
import { createChannel, joinAndOpen, log, openNotificationSettings, person, send } from "./helpers";
import { deliverPush, notifications, pushesFor, standInSubscription, turnOnPush, usePushServiceStandIn } from "./push-helpers";

// Web Push end to end: our PocketBase pushes to the push service stand-in on loopback (it checks VAPID
// and decrypts RFC 8291: tests/integration/push-service.ts); the test hands what it received to Bob's
// service worker through the DevTools protocol, as Chrome's push service would.
test("Web Push: a mention reaches Bob's closed tab as ciphertext and his device shows its text; after sign-out nothing readable", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const sub = await standInSubscription();
  await usePushServiceStandIn(bob.context, sub);
  await bob.page.reload();
  const password = `push-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Push Room", password);
  await joinAndOpen(bob.page, channelId, password, "Push Room");

  // Bob turns it on for this browser
  await turnOnPush(bob.page);

  // while his page is open, Alice's messages reach it there, and no push goes out
  await send(alice.page, `@${bob.user.username} are you there?`);
  await expect(log(bob.page).getByText("are you there?")).toBeVisible();
  // (the page keeps the channel's and Alice's keys for the worker as it opens her messages)
  await expect
    .poll(() =>
      bob.page.evaluate(
        (id) =>
          new Promise<boolean>((resolve) => {
            const open = indexedDB.open("chatcrypt_push");
            open.onsuccess = () => {
              const get = open.result.transaction("keys").objectStore("keys").getAll();
              get.onsuccess = () => resolve(Boolean(get.result[0]?.channels?.[id]));
              get.onerror = () => resolve(false);
            };
            open.onerror = () => resolve(false);
          }),
        channelId,
      ),
    )
    .toBe(true);

  // Bob closes the tab (his browser, and its service worker, stay)
  await bob.page.goto("about:blank");
  const canary = `push-canary-${Date.now()}`;
  let sent = 0;
  await expect(async () => {
    await send(alice.page, `@${bob.user.username} ${canary} ${++sent}`);
    await expect.poll(async () => (await pushesFor(sub.id)).length, { timeout: 3_000 }).toBeGreaterThan(0);
  }).toPass({ timeout: 30_000 });
  const pushes = await pushesFor(sub.id);
  expect(pushes).toHaveLength(1);
  const payload = pushes[0].payload;
  expect(payload).not.toContain(canary);
  expect(payload).not.toContain(password);
  expect(JSON.parse(payload)).toMatchObject({ c: channelId, n: "Push Room", u: alice.user.username, e: expect.any(String) });

  // his browser's push service hands it to the service worker, which opens it on the device
  await deliverPush(bob.page, payload);
  await bob.page.goto("/manifest.webmanifest");
  await expect
    .poll(() => notifications(bob.page))
    .toEqual([{ title: `${alice.user.username} in #Push Room`, body: `@${bob.user.username} ${canary} ${sent}` }]);

  // after sign-out, the same push opens nothing, and the server has forgotten this browser
  await bob.page.goto("/");
  await signOut(bob.page);
  await deliverPush(bob.page, payload);
  await expect.poll(() => notifications(bob.page)).toEqual([{ title: "New message in #Push Room", body: "" }]);
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  expect(await admin.collection("push_subscriptions").getFullList({ filter: admin.filter("owner = {:id}", { id: bob.id }) })).toEqual([]);
  expect(await bob.page.evaluate(() => indexedDB.databases().then((dbs) => dbs.map((d) => d.name)))).not.toContain("chatcrypt_push");
  // nor is the text anywhere on the server: records, files, logs
  expect(filesContaining([process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!], canary)).toEqual([]);

  await alice.context.close();
  await bob.context.close();
});

// The worker installs after the first load, fetching the app's files first (seconds on a busy device);
// a push that arrives before it is active is lost. Turning notifications on waits for it.
test("turning on notifications while the service worker is still installing waits until it can receive pushes", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  await usePushServiceStandIn(context, await standInSubscription());
  // a slow network for the first of the app's files the worker fetches: its install takes at least 8 s
  let slowed = false;
  await context.route("**/assets/**", async (route) => {
    if (!route.request().serviceWorker() || slowed) return route.fallback();
    slowed = true;
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    await route.fallback();
  });
  const page = await context.newPage();
  await signUp(page, newUser("bob"));
  await expect.poll(() => slowed).toBe(true);

  const dialog = await openNotificationSettings(page);
  const toggle = dialog.getByLabel("Notify me when ChatCrypt is closed");
  await toggle.click();
  await expect(dialog.getByRole("status")).toHaveText("Turning on…");
  await expect(toggle).toBeChecked({ timeout: 30_000 });
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/"))?.active?.state)).toBe("activated");
  await context.close();
});
