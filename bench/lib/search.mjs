// The search phase (issue 14), in Debian's chromium: the app's own index code (app/features/search)
// bundled with esbuild and run in a page of the web server's origin for index build rate, query p95
// over 100,000 messages and the sealed size in IndexedDB; then the real app: sign-in, background
// backfill of a channel's history, and the time from Enter on a search result to the message opened
// and highlighted (the oldest one, so the older pages are loaded on the way).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { createChannel, postMessage } from "./chat.mjs";
import { pool } from "./stats.mjs";

const LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

function bundle(root, tmpDir) {
  const entry = path.join(tmpDir, "chatcrypt-search-entry.ts");
  const out = path.join(tmpDir, "chatcrypt-search.js");
  const at = (...p) => JSON.stringify(path.join(root, ...p));
  writeFileSync(
    entry,
    `export { SearchIndex, Chunk } from ${at("app", "features", "search", "engine.ts")};\n` +
      `export { parseQuery } from ${at("app", "features", "search", "query.ts")};\n` +
      `export { encryptBytes, decryptBytes } from ${at("app", "crypto", "index.ts")};\n` +
      `export { chatCorpus } from ${at("bench", "lib", "corpus.mjs")};\n`,
  );
  execFileSync(path.join(root, "node_modules", ".bin", "esbuild"), [
    entry,
    "--bundle",
    "--format=iife",
    "--global-name=__search",
    "--target=chrome120",
    `--alias:~=${path.join(root, "app")}`,
    `--outfile=${out}`,
    "--log-level=warning",
  ]);
  return readFileSync(out, "utf8");
}

/** Runs in the page: build, query, seal and store. */
async function inPage({ messages, channels, rounds }) {
  const S = window.__search;
  const base = Date.parse("2026-01-01T00:00:00Z");
  const docs = S.chatCorpus(messages).map((d, i) => ({
    id: `m${String(d.id).padStart(14, "0")}`,
    channelId: `c${i % channels}`,
    senderId: `u${i % 7}`,
    sender: `user${i % 7}`,
    created: new Date(base + i * 60_000).toISOString().replace("T", " "),
    text: d.text,
    extra: i % 50 === 0 ? `report-${i}.pdf` : "",
    hasFile: i % 50 === 0,
  }));
  const index = new S.SearchIndex();
  let t = performance.now();
  for (let i = 0; i < docs.length; i += 1_000) index.upsert(docs.slice(i, i + 1_000));
  const buildMs = performance.now() - t;

  const queries = ["encr", "meeting tomo", "deploy", "cafe", "rel", "budget review", "pass", "inv", "weekend plans", "résumé"];
  queries.push("from:@user3 budget", "in:#chan-c2 deploy", "has:file report", "zzz", "the");
  const names = { channel: (id) => `chan-${id}` };
  const times = [];
  let hits = 0;
  for (let r = 0; r < rounds; r++)
    for (const q of queries) {
      t = performance.now();
      hits += index.search(S.parseQuery(q), names).length;
      times.push(performance.now() - t);
    }

  // Sealed chunks in IndexedDB, as the app stores them (AES-GCM, one record per channel).
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  const db = await new Promise((resolve, reject) => {
    indexedDB.deleteDatabase("bench_search");
    const open = indexedDB.open("bench_search", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("chunks", { keyPath: "key" });
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const put = (row) =>
    new Promise((resolve, reject) => {
      const tx = db.transaction("chunks", "readwrite");
      tx.objectStore("chunks").put(row);
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
  const before = (await navigator.storage.estimate()).usage ?? 0;
  let sealedBytes = 0;
  let jsonBytes = 0;
  t = performance.now();
  for (const [channelId, chunk] of index.chunks) {
    const json = chunk.serialize();
    jsonBytes += json.length;
    const sealed = await S.encryptBytes(key, new TextEncoder().encode(json), channelId);
    sealedBytes += sealed.length;
    await put({ key: channelId, sealed });
  }
  const saveMs = performance.now() - t;
  const after = (await navigator.storage.estimate()).usage ?? 0;
  // Reading one chunk back: IndexedDB, AES-GCM, JSON, MiniSearch.loadJS.
  t = performance.now();
  const row = await new Promise((resolve) => {
    const get = db.transaction("chunks").objectStore("chunks").get("c0");
    get.onsuccess = () => resolve(get.result);
  });
  const json = new TextDecoder().decode(await S.decryptBytes(key, row.sealed, "c0"));
  S.Chunk.load("c0", json);
  const loadChunkMs = performance.now() - t;
  db.close();
  indexedDB.deleteDatabase("bench_search");
  return {
    buildMs,
    times,
    hits,
    sealedBytes,
    jsonBytes,
    usageBytes: after - before,
    saveMs,
    loadChunkMs,
    perChunk: messages / channels,
  };
}

/** The phase at the bench's sizes (quick: 20,000 indexed and 300 in the app instead of 100,000 and 1,000). */
export const searchPhase = ({ root, stack, c, reader, tag, log, quick }) =>
  measureSearch({
    root,
    tmpDir: stack.dir,
    baseUrl: stack.webUrl,
    c,
    reader,
    tag,
    log,
    messages: quick ? 20_000 : 100_000,
    historyMessages: quick ? 300 : 1_000,
  });

/**
 * Measures the search phase. `c` is the client crypto (bench/lib/crypto.mjs); `reader` a signed-up
 * WebClient (bench/lib/chat.mjs) who owns a new channel with `historyMessages` messages.
 */
export async function measureSearch({ root, tmpDir, baseUrl, c, reader, tag, log, messages = 100_000, historyMessages = 1_000 }) {
  const code = bundle(root, tmpDir);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: LAUNCH_ARGS });
  try {
    // ---- the index alone ----
    const context = await browser.newContext({ baseURL: baseUrl, bypassCSP: true });
    const page = await context.newPage();
    await page.goto("/");
    await page.evaluate(code);
    const engine = await page.evaluate(inPage, { messages, channels: 10, rounds: 10 });
    await context.close();
    const sorted = [...engine.times].sort((a, b) => a - b);
    const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
    const index = {
      messages,
      buildRate: messages / (engine.buildMs / 1000),
      queryP50: sorted[Math.floor(sorted.length / 2)],
      queryP95: p95,
      queries: sorted.length,
      bytesPer10k: (engine.sealedBytes / messages) * 10_000,
      usageBytesPer10k: (engine.usageBytes / messages) * 10_000,
      jsonBytesPer10k: (engine.jsonBytes / messages) * 10_000,
      saveMs: engine.saveMs,
      loadChunkMs: engine.loadChunkMs,
      perChunk: engine.perChunk,
    };
    log(
      `  index of ${messages.toLocaleString("en-US")} messages: build ${Math.round(index.buildRate).toLocaleString("en-US")} messages/s; query p50 ${index.queryP50.toFixed(1)} ms, p95 ${index.queryP95.toFixed(1)} ms (${index.queries} queries); sealed ${(index.bytesPer10k / 2 ** 20).toFixed(2)} MiB per 10,000 messages (IndexedDB usage ${(index.usageBytesPer10k / 2 ** 20).toFixed(2)} MiB); loading one ${index.perChunk.toLocaleString("en-US")}-message chunk ${index.loadChunkMs.toFixed(0)} ms`,
    );

    // ---- the app: backfill, then search to the opened message ----
    const channel = await createChannel(c, reader, `bench-search-${tag}`, `pw-S-${tag}`);
    const other = await createChannel(c, reader, `bench-search-other-${tag}`, `pw-T-${tag}`);
    const word = `quokka${tag}`;
    const ids = [];
    for (let i = 0; i < historyMessages; i += 100) {
      const batch = Array.from({ length: Math.min(100, historyMessages - i) }, (_, k) => i + k);
      const posted = await pool(batch, 4, (n) =>
        postMessage(
          c,
          reader,
          channel,
          n === 0 ? `the oldest message mentions the ${word} plan` : `search history message ${n}: deploy notes`,
        ),
      );
      ids.push(...posted.map((p) => p.message.id));
      if (i === 0) await postMessage(c, reader, other, "the other channel");
    }
    const appContext = await browser.newContext({ baseURL: baseUrl });
    const app = await appContext.newPage();
    await app.goto("/");
    await app.getByText("End-to-end encrypted messaging").waitFor({ timeout: 30_000 });
    await app.evaluate((list) => list.forEach((x) => localStorage.setItem(`channel_password_${x.id}`, x.password)), [channel, other]);
    await app.getByLabel("Email").fill(reader.user.email);
    await app.getByLabel("Password").fill(reader.password);
    const signedIn = performance.now();
    await app.getByRole("button", { name: "Sign In", exact: true }).click();
    const field = app.getByRole("combobox", { name: "Search messages" });
    await field.waitFor({ timeout: 30_000 });
    await field.focus();
    const all = (historyMessages + 1).toLocaleString("en-US");
    await app.getByText(`Indexed ${all} of ${all} messages`).waitFor({ timeout: 120_000 });
    const backfillMs = performance.now() - signedIn;
    await app.getByRole("button", { name: `# ${other.name}`, exact: true }).click();
    await app.getByRole("heading", { name: `# ${other.name}` }).waitFor();
    await field.fill(word.slice(0, 8));
    await app.getByRole("option").first().waitFor();
    const target = ids[0];
    await app.evaluate((id) => {
      const b = (window.__benchSearch = { at: null, openedAt: null });
      document.addEventListener("keydown", (e) => e.key === "Enter" && b.at === null && (b.at = performance.now()), { capture: true });
      const check = () => {
        if (b.openedAt !== null || !document.querySelector(`#message-${id}.highlight`)) return;
        b.openedAt = -1;
        requestAnimationFrame(() => requestAnimationFrame(() => (b.openedAt = performance.now())));
      };
      new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
    }, target);
    await field.press("Enter");
    await app.waitForFunction(() => (window.__benchSearch.openedAt ?? -1) > 0, null, { timeout: 60_000, polling: 50 });
    const openMs = await app.evaluate(() => window.__benchSearch.openedAt - window.__benchSearch.at);
    await appContext.close();
    const opened = { ms: openMs, historyMessages, backfillMs };
    log(
      `  app: sign-in to ${historyMessages.toLocaleString("en-US")} messages indexed ${(backfillMs / 1000).toFixed(1)} s; search result (the oldest message) to opened and highlighted ${openMs.toFixed(0)} ms`,
    );
    return { index, opened };
  } finally {
    await browser.close();
  }
}
