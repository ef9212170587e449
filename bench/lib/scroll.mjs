// The bench's long-history scroll (issue 29, item 3): a channel with 10,000 messages posted through the
// API, all of them paged into one Chromium page ("Load older messages" until there are none), then the
// list scrolled from the bottom to the top, half a screen per frame, timing every frame (two minutes at most).
//
// Chromium runs without its frame-rate limit, so that the time between two animation frames is what
// the frame cost (script, style, layout, paint), not the display's 16.7 ms beat.
import { chromium } from "@playwright/test";
import { LAUNCH_ARGS } from "./browser.mjs";
import { createChannel, joinChannel, postMessage } from "./chat.mjs";
import { percentile, pool } from "./stats.mjs";

const SCROLL_ARGS = [...LAUNCH_ARGS, "--disable-frame-rate-limit", "--disable-gpu-vsync"];

/** Creates the channel (its creator: the reader) and posts `total` messages from `senders`. */
export async function seedLongHistory({ c, reader, senders, tag, total }) {
  const channel = await createChannel(c, reader, `bench-scroll-${tag}`, `pw-S-${tag}`);
  await pool(senders, 4, (client) => joinChannel(client, channel));
  await pool(
    Array.from({ length: total }, (_, i) => i),
    4,
    (i) => postMessage(c, senders[i % senders.length], channel, `long history ${i}: the quick brown fox jumps over the lazy dog`),
  );
  return { ...channel, total };
}

/** In the page: scrolls the message list from its bottom to its top, one step per frame (for `maxMs` at most); the frames' times. */
function scrollToTop(maxMs) {
  return new Promise((resolve) => {
    const list = document.querySelector('[role="log"]');
    list.scrollTop = list.scrollHeight;
    const frames = [];
    let last = null;
    let end = Infinity;
    const step = (now) => {
      if (last !== null) frames.push(now - last);
      else end = now + maxMs;
      last = now;
      if (list.scrollTop <= 0 || now > end) return resolve({ frames, top: list.scrollTop });
      list.scrollTop = Math.max(0, list.scrollTop - list.clientHeight / 2);
      requestAnimationFrame(step);
    };
    // two frames first: the jump to the bottom is not part of the scroll
    requestAnimationFrame(() => requestAnimationFrame(step));
  });
}

/**
 * Signs `reader` in, opens `channel`, loads its whole history, then scrolls it back to the top.
 * Returns { loaded, loadSeconds, frames, p50, p95, max, over16 }.
 */
export async function measureScroll({ baseUrl, reader, channel, log }) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: SCROLL_ARGS });
  try {
    const context = await browser.newContext({ baseURL: baseUrl });
    const page = await context.newPage();
    await page.goto("/");
    await page.getByText("End-to-end encrypted messaging").waitFor({ timeout: 30_000 });
    await page.evaluate(({ id, password }) => localStorage.setItem(`channel_password_${id}`, password), channel);
    await page.getByLabel("Email").fill(reader.email);
    await page.getByLabel("Password").fill(reader.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.getByRole("button", { name: `# ${channel.name}`, exact: true }).click({ timeout: 30_000 });
    const log$ = page.getByRole("log", { name: "Messages" });
    await log$.locator("article").first().waitFor({ timeout: 60_000 });

    // every page of history, one "Load older messages" at a time
    const t = performance.now();
    const older = page.getByRole("button", { name: "Load older messages" });
    const waitIdle = () => page.waitForFunction(() => !document.querySelector(".load-older[disabled]"), null, { timeout: 60_000 });
    for (let pages = 0; ; pages++) {
      if (pages % 10 === 0) log(`  scroll: ${pages} older pages loaded (${((performance.now() - t) / 1000).toFixed(0)} s)`);
      await waitIdle();
      if ((await older.count()) === 0) break;
      const answered = page.waitForResponse(
        (r) => r.url().includes(`/api/channels/${channel.id}/messages`) && r.url().includes("before="),
        {
          timeout: 60_000,
        },
      );
      await older.click({ timeout: 60_000 }).catch(() => undefined);
      await answered;
    }
    const loadSeconds = (performance.now() - t) / 1000;
    // the messages loaded: each article's aria-setsize where the list is virtual, else the articles
    const loaded = await log$.evaluate((list) => {
      const first = list.querySelector("article");
      return Number(first?.getAttribute("aria-setsize") ?? list.querySelectorAll("article").length);
    });
    log(`  scroll: ${loaded} messages loaded in ${loadSeconds.toFixed(1)} s`);

    const { frames, top } = await page.evaluate(scrollToTop, 120_000);
    const over16 = frames.filter((f) => f > 16).length;
    const result = {
      loaded,
      loadSeconds,
      frames: frames.length,
      reachedTop: top <= 0,
      p50: percentile(frames, 50),
      p95: percentile(frames, 95),
      max: percentile(frames, 100),
      over16,
    };
    log(
      `  scroll ${loaded} messages bottom to top: ${result.frames} frames, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, max ${result.max.toFixed(0)} ms, ${over16} over 16 ms${result.reachedTop ? "" : " (top not reached)"}`,
    );
    await context.close();
    return result;
  } finally {
    await browser.close();
  }
}
