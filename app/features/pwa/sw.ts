/// <reference lib="webworker" />
/**
 * ChatCrypt's service worker (ADR 25). scripts/build-sw.mjs bundles it into build/client/sw.js, and
 * Workbox puts the precache list in place of `self.__WB_MANIFEST`: the build's styles, icons and fonts,
 * and the offline page; never a script (ADR 84), a page of the app or an answer of /api/.
 *
 * - A precached file is served from the cache (Workbox checks its revision on each new build). Any
 *   other file under /assets/ (the scripts; names carry their content hash) is kept here when a page
 *   first loads it, and served from here after that (ADR 84).
 * - A page (navigation) always comes from the network and is never stored: it carries the signed-in
 *   user's data (`no-store`). Only when the network is away does the offline page answer instead.
 * - Everything else, /api/ and the live stream included, is not handled here: the browser fetches it
 *   as if there were no worker.
 */
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { ExpirationPlugin } from "workbox-expiration";
import { CacheFirst, NetworkOnly } from "workbox-strategies";
import { installPushHandlers } from "~/features/push/push-worker";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

/** Shown when a page cannot be loaded because the network is away (public/offline.html, precached). */
const OFFLINE_PAGE = "/offline.html";

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/** The build's other files, kept on first use; a new build's files replace the oldest past this many. */
const KEPT_ASSETS = 300;
registerRoute(
  // (a route answers GET requests only, Workbox's default)
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith("/assets/"),
  new CacheFirst({
    cacheName: "chatcrypt-assets",
    plugins: [new ExpirationPlugin({ maxEntries: KEPT_ASSETS, purgeOnQuotaError: true })],
  }),
);

const network = new NetworkOnly();
registerRoute(
  new NavigationRoute(async (options) => {
    try {
      return await network.handle(options);
    } catch {
      return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
    }
  }),
);

// /api/ requests, the live stream included, are sent by the browser straight to the network without
// waiting for this worker (static routing, ADR 41): none of them is answered here, and each would
// otherwise wait for the worker's thread to say so (a busy or stopped worker delays every request).
type RoutedInstall = ExtendableEvent & { addRoutes?: (rules: unknown) => Promise<void> };
self.addEventListener("install", (event) => {
  const install = event as RoutedInstall;
  if (!install.addRoutes) return;
  // (a browser that refuses the rule sends them through the worker's fetch event, which passes them on)
  event.waitUntil(install.addRoutes({ condition: { urlPattern: { pathname: "/api/*" } }, source: "network" }).catch(() => undefined));
});

// The first worker takes charge of the pages already open, so they work offline from then on. A new
// version waits until every ChatCrypt tab is closed (the pages still open keep the files they started with).
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

installPushHandlers(self);
