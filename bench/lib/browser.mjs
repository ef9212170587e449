// Debian's chromium driven by Playwright: sign-in time, first-load asset sizes and opening a channel
// with a long history. Times are taken inside the page (performance.now()) from the click to the
// frame after the DOM reached the expected state, so Playwright's polling does not add to them.
import { readFileSync, existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";

const REOPENS = Number(process.env.BENCH_REOPENS ?? 3);

export const LAUNCH_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/**
 * Installs the in-page probe: click time (capture phase) and every change of a watched count, with the
 * next frame's time, and whether the last element counted is in view in its scrolling list.
 */
function installProbe(page, selector) {
  return page.evaluate((sel) => {
    const w = window;
    w.__bench?.observer?.disconnect();
    const b = (w.__bench = { clickAt: null, changes: [], observer: null });
    document.addEventListener("click", () => (b.clickAt = performance.now()), { capture: true, once: true });
    const check = () => {
      const found = document.querySelectorAll(sel);
      const n = found.length;
      const last = b.changes.length ? b.changes[b.changes.length - 1].n : -1;
      if (n === last) return;
      const newest = found[n - 1]?.getBoundingClientRect();
      const list = found[n - 1]?.closest('[role="log"]')?.getBoundingClientRect();
      const inView = Boolean(newest && list && newest.top >= list.top - 1 && newest.bottom <= list.bottom + 1);
      const entry = { n, inView, domAt: performance.now(), frameAt: null };
      b.changes.push(entry);
      requestAnimationFrame(() => requestAnimationFrame(() => (entry.frameAt = performance.now())));
    };
    b.observer = new MutationObserver(check);
    b.observer.observe(document.body, { childList: true, subtree: true });
    check();
  }, selector);
}

// Only what changed after the click counts: a list still showing the conversation switched away from
// (as many messages or more) is not the one asked for.
async function probeResult(page, target, timeoutMs) {
  await page.waitForFunction(
    (t) => {
      const b = window.__bench;
      return b.clickAt !== null && b.changes.some((c) => c.n >= t && c.domAt >= b.clickAt && c.frameAt !== null);
    },
    target,
    { timeout: timeoutMs, polling: 50 },
  );
  return page.evaluate((t) => {
    const b = window.__bench;
    b.observer.disconnect();
    const after = b.changes.filter((c) => c.domAt >= b.clickAt);
    const hit = after.find((c) => c.n >= t);
    // the newest messages in view: more than the one message of the channel switched away from
    const seen = after.find((c) => c.inView && c.n > 1 && c.frameAt !== null);
    return { ms: hit.frameAt - b.clickAt, domMs: hit.domAt - b.clickAt, count: hit.n, inViewMs: seen ? seen.frameAt - b.clickAt : null };
  }, target);
}

/**
 * reader: { email, password }; history: { id, name, password, total }; other: { id, name, password, total };
 * annotated (optional): a channel with the same history plus edits and reactions, opened the same way;
 * markdown (optional): a channel of as many Markdown messages, some with code blocks.
 * Returns sign-in time, asset sizes, page size and open times.
 */
export async function measureBrowser({ root, baseUrl, reader, history, other, annotated, markdown, log }) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: LAUNCH_ARGS });
  try {
    const context = await browser.newContext({ baseURL: baseUrl });
    const page = await context.newPage();
    const assets = new Set();
    page.on("request", (r) => {
      const u = new URL(r.url());
      // (the service worker, /sw.js, is fetched after the page has loaded: not part of its first load)
      if (u.origin === baseUrl && u.pathname !== "/sw.js" && (u.pathname.endsWith(".js") || u.pathname.endsWith(".css")))
        assets.add(u.pathname);
    });

    await page.goto("/");
    await page.getByText("End-to-end encrypted messaging").waitFor({ timeout: 30_000 });
    // A fresh device: the channel passwords (and their keys) come from the reader's keyring, as written
    // by the device that created the channels (bench/lib/chat.mjs createChannel).

    // ---- sign in: click "Sign In" until the workspace is on screen ----
    await page.getByLabel("Email").fill(reader.email);
    await page.getByLabel("Password").fill(reader.password);
    await installProbe(page, ".workspace");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    const signIn = await probeResult(page, 1, 30_000);
    log(`  sign-in: ${signIn.ms.toFixed(0)} ms`);

    const historyButton = page.getByRole("button", { name: `# ${history.name}`, exact: true });
    const otherButton = page.getByRole("button", { name: `# ${other.name}`, exact: true });
    await historyButton.waitFor({ timeout: 30_000 });

    // With BENCH_BROWSER_PROFILE=<dir>, the page's CPU profile of each open of the history (and of the
    // Markdown and annotated channels, each file named by its channel) goes there
    // (bench/profile-summary.mjs reads it).
    const profileDir = process.env.BENCH_BROWSER_PROFILE;
    const cdp = profileDir ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    }
    let profiled = 0;
    let traced = 0;

    // ---- open the channel with the long history ----
    const openChannel = async (channel = history) => {
      const button = page.getByRole("button", { name: `# ${channel.name}`, exact: true });
      // the channel's latest page (the search index's backfill asks for pages of its own, with a count or a bound)
      const requested = page.waitForRequest(
        (r) => r.url().includes(`/api/channels/${channel.id}/messages`) && !/[?&](count|before|after|around)=/.test(r.url()),
        { timeout: 30_000 },
      );
      await installProbe(page, '[role="log"] article');
      // (every open of the history, of the Markdown and of the annotated channel is profiled, each file named by its channel)
      const profiling = cdp && [history, markdown, annotated].includes(channel);
      if (profiling) await cdp.send("Profiler.start");
      // With BENCH_BROWSER_TRACE=<file>, the first open's Chromium trace (style, layout, paint) goes there.
      const trace = process.env.BENCH_BROWSER_TRACE && !traced++ ? process.env.BENCH_BROWSER_TRACE : null;
      if (trace)
        await browser.startTracing(page, { path: trace, categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
      await button.click();
      const pageSize = Number(new URL((await requested).url()).searchParams.get("limit") ?? NaN);
      const target = Math.min(Number.isFinite(pageSize) ? pageSize : channel.total, channel.total);
      const result = await probeResult(page, target, 60_000);
      if (trace) await browser.stopTracing();
      if (profiling) {
        const { profile } = await cdp.send("Profiler.stop");
        const label = channel === history ? "history" : channel === markdown ? "markdown" : "annotated";
        writeFileSync(path.join(profileDir, `open-${++profiled}-${label}.cpuprofile`), JSON.stringify(profile));
      }
      return { ...result, pageSize, target };
    };
    const switchAway = async () => {
      await installProbe(page, '[role="log"] article');
      await otherButton.click();
      await probeResult(page, other.total, 30_000);
      await page.waitForTimeout(300);
    };
    const first = await openChannel();
    if (process.env.BENCH_TRACE_OPEN) {
      const t = await page.evaluate(() => {
        const c = window.__bench.clickAt;
        const r = performance
          .getEntriesByType("resource")
          .filter((e) => e.startTime > c - 50 && e.startTime < c + 800)
          .map(
            (e) =>
              `${(e.startTime - c).toFixed(0)}..${(e.responseEnd - c).toFixed(0)} (sent ${(e.requestStart - c).toFixed(0)}, first byte ${(e.responseStart - c).toFixed(0)}) ${e.name.replace(location.origin, "").slice(0, 90)}`,
          );
        const m = performance
          .getEntriesByType("mark")
          .filter((e) => e.startTime > c - 50)
          .map((e) => `${(e.startTime - c).toFixed(0)} ${e.name}`);
        return [...r, "--", ...m].join("\n");
      });
      log(t);
    }
    // first load: what signing in and opening the first channel loaded (what loads in the background
    // afterwards, such as the search index, or when a feature is used, is not counted)
    const firstLoad = [...assets];
    const inView = (r) => (r.inViewMs === null ? "" : `, the newest in view at ${r.inViewMs.toFixed(0)} ms`);
    log(
      `  open history (first on this device, the key from the keyring): ${first.ms.toFixed(0)} ms for ${first.count} messages (page size ${first.pageSize})${inView(first)}`,
    );

    // Switch away and back: the channel key and sender profiles are cached now.
    await switchAway();
    const again = await openChannel();
    // opened before in this page: shown from memory, then caught up
    const reopens = [again];
    for (let i = 0; i < 2; i++) {
      await switchAway();
      reopens.push(await openChannel());
    }
    const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    again.medianMs = median(reopens.map((r) => r.ms));
    again.inViewMedianMs = median(reopens.map((r) => r.inViewMs ?? r.ms));
    log(
      `  open history again (opened before): ${again.ms.toFixed(0)} ms${inView(again)}; median of 3: ${again.medianMs.toFixed(0)} ms all mounted, ${again.inViewMedianMs.toFixed(0)} ms the newest in view`,
    );

    // Re-opening `channel` against re-opening the plain history, alternated, median of 3 each
    // (BENCH_REOPENS=<n>: of n each, for a loaded machine).
    const againstPlain = async (channel) => {
      await switchAway();
      const firstOpen = await openChannel(channel);
      const runs = { with: [], plain: [] };
      for (let i = 0; i < REOPENS; i++) {
        await switchAway();
        runs.with.push((await openChannel(channel)).ms);
        await switchAway();
        runs.plain.push((await openChannel()).ms);
      }
      const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
      return {
        first: firstOpen.ms,
        againMs: median(runs.with),
        plainAgainMs: median(runs.plain),
        ratio: median(runs.with) / median(runs.plain),
      };
    };

    // ---- the same history with edits and reactions: opened the same way, first and again ----
    let withAnnotations = null;
    if (annotated) {
      withAnnotations = { ...(await againstPlain(annotated)), edits: annotated.edits, reactions: annotated.reactions };
      log(
        `  open history with ${annotated.reactions} reactions and ${annotated.edits} edits again: ${withAnnotations.againMs.toFixed(0)} ms against ${withAnnotations.plainAgainMs.toFixed(0)} ms without (median of ${REOPENS} each, ${withAnnotations.ratio.toFixed(2)}x)`,
      );
    }

    // ---- the same number of messages in Markdown, one in ten a fenced code block (highlighted) ----
    let withMarkdown = null;
    if (markdown) {
      withMarkdown = { ...(await againstPlain(markdown)), codeBlocks: markdown.codeBlocks };
      log(
        `  open ${markdown.total} Markdown messages (${markdown.codeBlocks} code blocks) again: ${withMarkdown.againMs.toFixed(0)} ms against ${withMarkdown.plainAgainMs.toFixed(0)} ms plain (median of ${REOPENS} each, ${withMarkdown.ratio.toFixed(2)}x)`,
      );
    }

    // ---- first load: the JS and CSS this session loaded, gzipped ----
    const files = firstLoad.map((p) => path.join(root, "build", "client", p.replace(/^\//, ""))).filter((f) => existsSync(f));
    let js = 0;
    let css = 0;
    let jsRaw = 0;
    let cssRaw = 0;
    for (const f of files) {
      const bytes = readFileSync(f);
      const gz = gzipSync(bytes).length;
      if (f.endsWith(".css")) {
        css += gz;
        cssRaw += bytes.length;
      } else {
        js += gz;
        jsRaw += bytes.length;
      }
    }
    await context.close();
    return {
      signInMs: signIn.ms,
      first,
      again,
      withAnnotations,
      withMarkdown,
      assets: { files: files.map((f) => path.relative(root, f)), js, css, jsRaw, cssRaw },
    };
  } finally {
    await browser.close();
  }
}
