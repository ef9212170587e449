// The bench's browser phase: a channel's history posted through the API (plain, annotated with edits and
// reactions, Markdown), its first page fetched as JSON, then opened in Chromium (bench/run.mjs).
import { statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { measureBrowser } from "./browser.mjs";
import { postMessage } from "./chat.mjs";
import { addFilesAndPreviews, postAnnotated, seedDeepChannel, timeLatestPage } from "./history-pages.mjs";
import { CFG } from "./config.mjs";
import { markdownMessage } from "./markdown.mjs";
import { measureScroll, seedLongHistory } from "./scroll.mjs";
import { fdCount } from "./stack.mjs";
import { percentile, pool } from "./stats.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Bytes of PocketBase's main SQLite database with its write-ahead log. */
function databaseBytes(dataDir) {
  let total = 0;
  for (const file of ["data.db", "data.db-wal"]) {
    try {
      total += statSync(path.join(dataDir, file)).size;
    } catch {
      // not there (yet)
    }
  }
  return total;
}

/** Posts the history and measures it: results.historySetup, results.browser, results.scroll, results.pbkdf2NodeMs. */
export async function historyPhase({ c, stack, pids, full, reader, channels, results, log }) {
  const { C: channelC, D: channelD, E: channelE, M: channelM } = channels;
  const dbBefore = databaseBytes(stack.dataDir);
  const t = performance.now();
  const senders = full.slice(1, 1 + CFG.historySenders);
  await pool(
    Array.from({ length: CFG.historyMessages }, (_, i) => i),
    4,
    (i) =>
      postMessage(
        c,
        senders[i % senders.length],
        channelC,
        `history message ${i} of the bench: the quick brown fox jumps over the lazy dog`,
      ),
  );
  await postMessage(c, senders[0], channelD, "the other channel");
  // SQLite's growth per message (database and write-ahead log; the messages of ~90 plaintext characters)
  const bytesPerMessage = (databaseBytes(stack.dataDir) - dbBefore) / (CFG.historyMessages + 1);
  // The same history again, then 100 edits (each by the message's sender) and 300 reactions spread over it.
  const annotated = await postAnnotated(c, senders, channelE, CFG.historyMessages, "history message");
  // The same number of messages in Markdown: bold, a list and a quote; one in ten a TypeScript block.
  await pool(
    Array.from({ length: CFG.historyMessages }, (_, i) => i),
    4,
    (i) => postMessage(c, senders[i % senders.length], channelM, markdownMessage(i)),
  );
  const historySeconds = (performance.now() - t) / 1000;
  results.historySetup = {
    seconds: historySeconds,
    fds: { pocketbase: fdCount(pids.pocketbase), web: fdCount(pids.web) },
    bytesPerMessage,
    databaseBytes: databaseBytes(stack.dataDir),
  };
  log(
    `posted ${CFG.historyMessages} history messages in ${historySeconds.toFixed(1)} s (4 in flight, no live streams open; open fds PB ${results.historySetup.fds.pocketbase} web ${results.historySetup.fds.web})`,
  );
  // Baseline: the same first page fetched as JSON through the web server, without crypto or rendering.
  const fetches = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await reader.api(`/api/channels/${channelC.id}/messages?limit=200`);
    fetches.push(performance.now() - t0);
  }
  const apiPageMs = percentile(fetches, 50);
  try {
    const browser = await measureBrowser({
      root,
      baseUrl: stack.webUrl,
      reader: { email: reader.user.email, password: reader.password },
      history: { id: channelC.id, name: channelC.name, password: channelC.password, total: CFG.historyMessages },
      other: { id: channelD.id, name: channelD.name, password: channelD.password, total: 1 },
      annotated: {
        id: channelE.id,
        name: channelE.name,
        password: channelE.password,
        total: CFG.historyMessages,
        edits: Math.round(CFG.historyMessages / 10),
        reactions: Math.round((CFG.historyMessages * 3) / 10),
      },
      markdown: {
        id: channelM.id,
        name: channelM.name,
        password: channelM.password,
        total: CFG.historyMessages,
        codeBlocks: Math.ceil(CFG.historyMessages / 10),
      },
      log,
    });
    results.browser = { ...browser, apiPageMs };
  } catch (error) {
    log(`browser phase failed: ${error.message}`);
    results.browser = { error: String(error.message ?? error), apiPageMs };
  }
  // A channel with 10,000 messages, all loaded in one page, scrolled from the bottom to the top.
  try {
    const s = performance.now();
    const long = await seedLongHistory({
      c,
      reader,
      senders,
      tag: channelC.name.replace(/^bench-history-/, ""),
      total: CFG.scrollMessages,
    });
    log(`posted ${CFG.scrollMessages} messages for the scroll in ${((performance.now() - s) / 1000).toFixed(1)} s`);
    results.scroll = await measureScroll({
      baseUrl: stack.webUrl,
      reader: { email: reader.user.email, password: reader.password },
      channel: long,
      log,
    });
  } catch (error) {
    log(`scroll phase failed: ${error.message}`);
    results.scroll = { error: String(error.message ?? error) };
  }
  // The latest page as JSON with edits, reactions, files and previews: at 1,000 messages, then at 100,000.
  try {
    await addFilesAndPreviews(stack, channelE.id, annotated.slice(-200));
    const shallow = await timeLatestPage(reader, channelE.id);
    const deepTotal = CFG.deepHistoryMessages;
    const deep = await seedDeepChannel({
      c,
      stack,
      reader,
      senders,
      tag: channelC.name.replace(/^bench-history-/, ""),
      total: deepTotal,
      log,
    });
    const deepPage = await timeLatestPage(reader, deep.id);
    results.historyPages = { shallow: { ...shallow, total: CFG.historyMessages }, deep: { ...deepPage, total: deepTotal } };
    log(
      `history page (200, annotated): ${shallow.p50.toFixed(1)} ms at ${CFG.historyMessages}, ${deepPage.p50.toFixed(1)} ms at ${deepTotal}`,
    );
  } catch (error) {
    log(`history page phase failed: ${error.message}`);
    results.historyPages = { error: String(error.message ?? error) };
  }
  const node = performance.now();
  await c.deriveAccountSecrets("a password", "someone@example.test", c.PBKDF2_ITERATIONS);
  results.pbkdf2NodeMs = performance.now() - node;
}
