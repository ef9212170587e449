import { execFileSync } from "node:child_process";
import type { FullConfig } from "@playwright/test";
import { startApertium } from "../integration/apertium";
import { startLiveKit } from "../integration/livekit";
import { startPocketBase } from "../integration/pocketbase";
import { startPushService } from "../integration/push-service";
import { startPreviewSite } from "./preview-site";
import { startWeb } from "./stack";

/** The e2e run's servers: a stack per worker, and the sites and services they share. */
export default async function globalSetup(config: FullConfig) {
  execFileSync("bash", ["scripts/ensure-deps.sh"], { stdio: "inherit" });
  const site = await startPreviewSite();
  const apertium = await startApertium();
  // a push service stand-in on loopback (no real one is reachable here): tests/integration/push-service.ts
  const push = await startPushService();
  // One stack (PocketBase on its own data directory, a production web server) per Playwright worker:
  // a worker runs one test at a time against its own stack (fixtures.ts picks it), so what a test
  // checks of "the server" (its data directory, its logs) is only what its own test did there.
  const stacks = await Promise.all(
    Array.from({ length: Math.max(1, config.workers) }, async () => {
      // Calls: the real LiveKit server, one per stack, on loopback (tests/integration/livekit.ts); PocketBase
      // reads its rooms to record calls (pocketbase/call_records.go).
      const livekit = await startLiveKit();
      const pb = await startPocketBase({
        env: {
          ...livekit.pocketbaseEnv,
          LINK_PREVIEW_ALLOW_HOSTS: new URL(site.origin).host,
          TRANSLATE_PROVIDER: "apertium",
          APERTIUM_URL: apertium.url,
          NEWS_FEED_URL: `${site.origin}/feed.xml`,
          NEWS_FEED_CACHE_SECONDS: "0",
          PUSH_ALLOW_HOSTS: push.host,
        },
      });
      // The news sidebar refreshes every 2 s here instead of 4 minutes, so a test can see an update.
      const web = await startWeb(pb.url, { env: { NEWS_REFRESH_SECONDS: "2", ...livekit.webEnv } });
      return { pb, web, livekit };
    }),
  );
  process.env.E2E_STACKS = JSON.stringify(
    stacks.map(({ pb, web, livekit }) => ({
      E2E_BASE_URL: web.url,
      E2E_PB_URL: pb.url,
      E2E_PB_DATA: pb.dataDir,
      E2E_LOG_DIR: web.logDir,
      E2E_SUPERUSER: JSON.stringify(pb.superuser),
      E2E_LIVEKIT: JSON.stringify({ url: livekit.url, apiUrl: livekit.apiUrl, apiKey: livekit.apiKey, apiSecret: livekit.apiSecret }),
    })),
  );
  process.env.E2E_PREVIEW_ORIGIN = site.origin;
  process.env.E2E_PUSH_ORIGIN = push.origin;

  return async () => {
    for (const { web, pb, livekit } of stacks) {
      await web.stop();
      await pb.stop();
      await livekit.stop();
    }
    site.server.close();
    await apertium.stop();
    await push.stop();
  };
}
