import type { Page } from "@playwright/test";
import { expect, NO_ANSWER, test } from "./fixtures";
import { createChannel, joinAndOpen, person, send, waitLive } from "./helpers";
import { startWeb } from "./stack";

/** Waits until the service worker is active and in charge of the page; returns its script and scope. */
async function controlled(page: Page) {
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 30_000 }).toBe(true);
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return { state: registration.active?.state, script: registration.active?.scriptURL, scope: registration.scope };
  });
}

/** Every request kept in the page's CacheStorage, by cache. */
const cachedUrls = (page: Page) =>
  page.evaluate(async () => {
    const out: { cache: string; url: string; mode: string }[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) out.push({ cache: name, url: request.url, mode: request.mode });
    }
    return out;
  });

// The static files the worker may keep (build/client); a page of the app or an /api/ answer never.
const STATIC_FILE =
  /^\/(assets\/[^/]+\.(js|css|woff2?|ttf|svg|png|webp)|icons\/[\w-]+\.png|favicon\.svg|manifest\.webmanifest|offline\.(html|css|js)|theme\.css)$/;

test("installable: a valid manifest, an active worker, the offline page when the network is away, no page or API answer cached", async ({
  browser,
  consoleErrors,
}) => {
  // The network is cut below while the page may still ask for a part it loads late (the sidebar's requests).
  consoleErrors.allow(NO_ANSWER);
  const me = await person(browser, "pwa");
  const { page, context } = me;
  const origin = new URL(page.url()).origin;

  // The worker is active, in charge of the page, for the whole origin.
  expect(await controlled(page)).toEqual({ state: "activated", script: `${origin}/sw.js`, scope: `${origin}/` });

  // The browser has nothing against installing it but the private window Playwright's contexts are.
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  expect(installabilityErrors.map((error) => error.errorId)).toEqual(["in-incognito"]);
  const manifest = await cdp.send("Page.getAppManifest");
  expect(manifest.url).toBe(`${origin}/manifest.webmanifest`);
  expect(manifest.errors).toEqual([]);
  const parsed = JSON.parse(manifest.data ?? "{}");
  expect(parsed).toMatchObject({ name: "ChatCrypt", start_url: "/", scope: "/", display: "standalone" });
  expect(parsed.icons).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ src: "/icons/icon-192.png", sizes: "192x192", type: "image/png" }),
      expect.objectContaining({ src: "/icons/icon-512.png", sizes: "512x512", type: "image/png" }),
      expect.objectContaining({ src: "/icons/icon-maskable-512.png", sizes: "512x512", purpose: "maskable" }),
    ]),
  );
  for (const icon of parsed.icons as { src: string }[]) {
    const answer = await page.request.get(icon.src);
    expect(answer.headers()["content-type"], icon.src).toBe("image/png");
  }
  await cdp.detach();

  // The worker's script is asked for again on every check; pages and API answers are never stored.
  const script = await page.request.get("/sw.js");
  expect(script.headers()["cache-control"]).toBe("no-cache");
  expect(script.headers()["content-type"]).toMatch(/^application\/javascript/);
  expect((await page.request.get("/manifest.webmanifest")).headers()["content-type"]).toMatch(/^application\/manifest\+json/);
  expect((await page.request.get("/")).headers()["cache-control"]).toBe("no-store");
  expect((await page.request.get("/api/unread")).headers()["cache-control"]).toBe("no-store");

  // The install button shows only while the browser offers to install the app.
  const install = page.getByRole("button", { name: "Install app" });
  await expect(install).toHaveCount(0);
  await page.evaluate(() => {
    const offer = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
      prompt: async () => void document.body.setAttribute("data-install-asked", "yes"),
      userChoice: Promise.resolve({ outcome: "accepted" }),
    });
    window.dispatchEvent(offer);
  });
  await install.click();
  await expect(page.locator("body")).toHaveAttribute("data-install-asked", "yes");
  await expect(install).toHaveCount(0);

  // Offline: a reload shows the offline page; "Try again" while still offline shows it again.
  await context.setOffline(true);
  await page.reload();
  const offline = page.getByRole("heading", { name: "You are offline" });
  await expect(offline).toBeVisible();
  await expect(page.getByText("The page will reconnect by itself when the connection is back.")).toBeVisible();
  // in the app's colours, which the offline page takes from the cached public/theme.css
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(11, 16, 32)");
  await expect(page.locator(".offline-card")).toHaveCSS("background-color", "rgb(17, 24, 50)");
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(offline).toBeVisible();
  await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();

  // Back online, the page reconnects by itself to the signed-in app.
  await context.setOffline(false);
  await expect(page.getByText(`@${me.user.username}`)).toBeAttached({ timeout: 20_000 });
  await expect(offline).toHaveCount(0);
  expect(await controlled(page)).toMatchObject({ state: "activated" });

  // The caches hold the static files (the offline page among them), never a page or an /api/ answer.
  const cached = await cachedUrls(page);
  const paths = cached.map((entry) => new URL(entry.url).pathname);
  expect(paths).toContain("/offline.html");
  expect(paths.some((p) => p.startsWith("/assets/"))).toBe(true);
  // No script is precached (a first visit does not fetch the whole build, ADR 84): the scripts kept are
  // the ones this page loaded through the worker, the page's own entry among them after the reload.
  const scripts = cached.filter((entry) => /^\/assets\/.*\.js$/.test(new URL(entry.url).pathname));
  expect(scripts.filter((entry) => entry.cache.includes("precache"))).toEqual([]);
  const entryScript = await page.evaluate(
    () => (window as unknown as { __remixManifest: { entry: { module: string } } }).__remixManifest.entry.module,
  );
  expect(scripts.map((entry) => `${entry.cache} ${new URL(entry.url).pathname}`)).toContain(`chatcrypt-assets ${entryScript}`);
  expect(cached.filter((entry) => entry.mode === "navigate")).toEqual([]);
  expect(paths.filter((p) => p === "/" || p.startsWith("/api/") || !STATIC_FILE.test(p))).toEqual([]);
  expect(await page.evaluate(async () => Boolean(await caches.match("/")))).toBe(false);
  await context.close();
});

test("the page's /api/ requests go straight to the network, not through the worker; its static files come from the worker", async ({
  browser,
}) => {
  const me = await person(browser, "sw-route");
  const { page } = me;
  await controlled(page);
  // (the worker took charge of this page after it loaded: the requests from here on are the ones it sees)
  await page.reload();
  await expect(page.getByText(`@${me.user.username}`)).toBeAttached({ timeout: 20_000 });
  const timing = () =>
    page.evaluate(() =>
      performance.getEntriesByType("resource").map((e) => {
        const entry = e as PerformanceResourceTiming & { workerMatchedSourceType?: string };
        return { path: new URL(entry.name).pathname, workerStart: entry.workerStart, source: entry.workerMatchedSourceType };
      }),
    );
  await expect.poll(async () => (await timing()).filter((t) => t.path.startsWith("/api/")).length).toBeGreaterThan(2);
  const entries = await timing();
  const api = entries.filter((t) => t.path.startsWith("/api/"));
  // the worker's static route sent each to the network (without one, the browser reports no route matched)
  expect(api.filter((t) => t.source !== "network")).toEqual([]);
  // the scripts still come through the worker's fetch event (its precache)
  const assets = entries.filter((t) => t.path.startsWith("/assets/"));
  expect(assets.length).toBeGreaterThan(0);
  expect(assets.filter((t) => t.source === "network")).toEqual([]);
  await me.context.close();
});

test("a server that does not answer while the device is online: the offline page says so, and loads the app by itself once it answers", async ({
  browser,
}) => {
  // Its own web server (on the shared PocketBase), so that it can be stopped without disturbing the other tests.
  const web = await startWeb(process.env.E2E_PB_URL!);
  const context = await browser.newContext({ baseURL: web.url });
  try {
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Sign In" })).toBeVisible();
    await controlled(page);
    await web.stop();
    await page.reload();
    await expect(page.getByRole("heading", { name: "ChatCrypt cannot be reached" })).toBeVisible();
    await expect(page.getByText("This device is online, but ChatCrypt's server does not answer.")).toBeVisible();
    await expect(page.getByText("The page will try again by itself in a moment, then every 30 seconds.")).toBeVisible();
    // it tries again by itself (2 s, then twice as long each time): once the server answers, the app is back
    await web.start();
    await expect(page.getByRole("heading", { name: "Sign In" })).toBeVisible({ timeout: 40_000 });
  } finally {
    await context.close();
    await web.stop();
  }
});

test("the unread count on the app icon and in the tab title", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  // Bob's app icon: the Badging API's calls, as the page makes them (Chromium outside an installed app shows none).
  await bob.page.addInitScript(() => {
    const calls: (number | null)[] = [];
    Object.assign(window, { badgeCalls: calls });
    Navigator.prototype.setAppBadge = async (n?: number) => void calls.push(n ?? 0);
    Navigator.prototype.clearAppBadge = async () => void calls.push(null);
  });
  const password = `badge-${Date.now()}`;
  const quiet = await createChannel(alice.page, "Badge Quiet", password);
  const team = await createChannel(alice.page, "Badge Team", password);
  await bob.page.reload();
  await joinAndOpen(bob.page, quiet, password, "Badge Quiet");
  await joinAndOpen(bob.page, team, password, "Badge Team");
  await alice.page.getByRole("button", { name: "# Badge Quiet", exact: true }).click();
  await waitLive(alice.page);

  const badge = () => bob.page.evaluate(() => (window as unknown as { badgeCalls: (number | null)[] }).badgeCalls.at(-1));
  await send(alice.page, "one");
  await send(alice.page, "two");
  // (the count and the open conversation's name together: each used to replace the other)
  await expect(bob.page).toHaveTitle("(2) Badge Team · ChatCrypt");
  await expect.poll(badge).toBe(2);

  await bob.page.getByRole("button", { name: "# Badge Quiet", exact: true }).click();
  await expect(bob.page).toHaveTitle("Badge Quiet · ChatCrypt");
  await expect.poll(badge).toBe(null);
  await alice.context.close();
  await bob.context.close();
});
