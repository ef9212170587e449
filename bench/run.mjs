// `npm run bench`: the real stack on loopback (our PocketBase on a temporary data directory, the
// production web server), simulated browsers in this process, and Debian's chromium for the page.
// Prints one table (figure | measured | baseline | target | met?) and writes docs/benchmarks.md.
// A missed target never fails the run; only a crash does.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { historyPhase } from "./lib/history-phase.mjs";
import { measureTyping } from "./lib/typing.mjs";
import { capacityPhase } from "./lib/capacity-phase.mjs";
import { createChannel, joinChannel, signUpFull } from "./lib/chat.mjs";
import { loadClientCrypto } from "./lib/crypto.mjs";
import { writeReport } from "./lib/report.mjs";
import { codeVersion } from "./lib/code-version.mjs";
import { fdLimits, raiseFdLimit } from "./lib/fds.mjs";
import { CFG, PHASES, QUICK } from "./lib/config.mjs";
import { Round, closeStreams, webLatency } from "./lib/delivery.mjs";
import { MEMBERS_TOPIC, STOCK_TOPIC, mergeCpu, probeTopic, rawLatency } from "./lib/baseline.mjs";
import { Verifier } from "./lib/verifier.mjs";
import { Poster } from "./lib/poster.mjs";
import { rawFanout, webFanout } from "./lib/fanout.mjs";
import { searchPhase } from "./lib/search.mjs";
import { retentionPhase } from "./lib/retention.mjs";
import { ssoPhase } from "./lib/sso.mjs";
import { fdCount, rssMb, startStack } from "./lib/stack.mjs";
import { pool } from "./lib/stats.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

// Every simulated page holds a socket here and one in a web process: the bench needs many descriptors.
raiseFdLimit();

const started = Date.now();
const elapsed = () => ((Date.now() - started) / 1000).toFixed(0).padStart(4);
const log = (line) => console.log(`[${elapsed()}s] ${line}`);
const timeLeft = () => CFG.totalBudgetMs - (Date.now() - started);
const fmt = (v, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");

async function main() {
  log(
    `ChatCrypt bench${QUICK ? " (quick)" : ""}: nproc ${os.cpus().length}, memory ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, fd limit ${fdLimits().soft}`,
  );
  log("ensure-deps (npm packages, PocketBase build, web build) ...");
  execFileSync("bash", ["scripts/ensure-deps.sh"], { stdio: ["ignore", "inherit", "inherit"] });

  const tag = randomBytes(3).toString("hex");
  const listenerCount = PHASES.has("capacity") ? CFG.listeners : 0;
  let t = performance.now();
  const stack = await startStack(root, { listeners: listenerCount, prefix: `l${tag}`, webProcesses: CFG.webProcesses });
  log(
    `stack started in ${((performance.now() - t) / 1000).toFixed(1)} s${listenerCount ? ` (${listenerCount} listening accounts written into PocketBase's data before it started)` : ""}`,
  );
  const onSignal = () => {
    stack.stop().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const results = { config: CFG, quick: QUICK, started: new Date(started).toISOString(), evidence: {}, code: codeVersion() };
  try {
    await runPhases(stack, results, tag);
  } finally {
    await stack.stop();
  }
  results.seconds = (Date.now() - started) / 1000;
  const table = writeReport(root, results);
  console.log("");
  console.log(table);
  console.log("");
  log(`done in ${results.seconds.toFixed(0)} s; results written to docs/benchmarks.md`);
}

async function runPhases(stack, results, tag) {
  const c = await loadClientCrypto(root, stack.dir);
  const pids = { pocketbase: stack.pb.pid, web: stack.webPids, bench: process.pid };
  results.webProcesses = stack.webPids.length > 1 ? stack.webPids.length - 1 : 1;
  results.fdLimit = fdLimits().soft;
  results.idleRss = {
    pocketbase: rssMb(pids.pocketbase),
    web: rssMb(pids.web),
    webEach: stack.webPids.map((pid) => rssMb(pid)),
    bench: rssMb(pids.bench),
  };
  results.idleFds = { pocketbase: fdCount(pids.pocketbase), web: fdCount(pids.web) };
  results.phases = [...PHASES];
  log(
    `stack up: PocketBase ${stack.pbUrl} (pid ${pids.pocketbase}), web ${stack.webUrl} (pids ${stack.webPids.join(", ")}: ${results.webProcesses} web process${results.webProcesses > 1 ? "es and their supervisor" : ""}); idle RSS PB ${fmt(results.idleRss.pocketbase)} MB, web ${fmt(results.idleRss.web)} MB`,
  );

  const person = (i, kind = "u") => ({
    username: `b${kind}${tag}_${i}`,
    email: `b${kind}${tag}.${i}@example.test`,
    password: `pw-${tag}-${i}-${randomBytes(6).toString("hex")}`,
  });

  // ---- accounts: full browser-like sign-ups (PBKDF2 600k, RSA/ECDH keys, wrapping) ----
  let t = performance.now();
  const full = (
    await pool(
      Array.from({ length: CFG.fullUsers }, (_, i) => i),
      CFG.signupConcurrency,
      (i) => signUpFull(c, stack.webUrl, person(i)),
    )
  ).filter(Boolean);
  const signupSeconds = (performance.now() - t) / 1000;
  results.signups = { full: full.length, seconds: signupSeconds };
  log(`signed up ${full.length} accounts the browser's way in ${signupSeconds.toFixed(1)} s (concurrency ${CFG.signupConcurrency})`);

  const reader = await signUpFull(c, stack.webUrl, person("reader", "r"));
  const channelA = await createChannel(c, full[0], `bench-live-${tag}`, `pw-A-${tag}`);
  const channelB = await createChannel(c, full[0], `bench-fanout-${tag}`, `pw-B-${tag}`);
  const channelC = await createChannel(c, reader, `bench-history-${tag}`, `pw-C-${tag}`);
  const channelD = await createChannel(c, reader, `bench-other-${tag}`, `pw-D-${tag}`);
  const channelE = await createChannel(c, reader, `bench-annotated-${tag}`, `pw-E-${tag}`);
  const channelM = await createChannel(c, reader, `bench-markdown-${tag}`, `pw-M-${tag}`);
  const channelCap = PHASES.has("capacity") ? await createChannel(c, full[0], `bench-capacity-${tag}`, `pw-F-${tag}`) : null;
  t = performance.now();
  await pool(full.slice(1), CFG.signupConcurrency, (client) => joinChannel(client, channelA));
  await pool(full.slice(1, CFG.fanoutMembers), CFG.signupConcurrency, (client) => joinChannel(client, channelB));
  if (channelCap) await pool(full.slice(1), CFG.signupConcurrency, (client) => joinChannel(client, channelCap));
  await pool(full.slice(1, 1 + CFG.historySenders), CFG.signupConcurrency, async (client) => {
    await joinChannel(client, channelC);
    await joinChannel(client, channelD);
    await joinChannel(client, channelE);
    await joinChannel(client, channelM);
  });
  log(`channels created and joined in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // Every client keeps one live stream at a time; phases swap the handler.
  for (const client of full) client.live = null;

  // The baseline subscribes to the topic the web server's /api/events uses for messages: our
  // PocketBase's members-only topic when this build has it, else the stock collection subscription.
  results.baselineTopic = (await probeTopic(c, stack, channelA, full[0], full[1])) ? MEMBERS_TOPIC : STOCK_TOPIC;
  log(
    `baseline subscribes to ${results.baselineTopic === MEMBERS_TOPIC ? `"${MEMBERS_TOPIC}" (members-only topic of our PocketBase)` : "the stock messages collection topic"}`,
  );

  // ---- 1. delivery latency, web vs raw PocketBase ----
  results.latency = {};
  results.errors = [];
  if (PHASES.has("latency")) {
    try {
      const members = full.slice(0, CFG.fanoutMembers);
      await rawFanout(stack, pids, channelB, members, CFG.latencyWarmSeconds);
      const warm = await webFanout(c, stack, pids, channelB, members, CFG.latencyWarmSeconds);
      log(`  warm-up (untimed): ${warm.posts} messages through the web server, the same again straight to PocketBase for as long`);
    } catch (error) {
      log(`warm-up failed: ${error.message}`);
      closeStreams(full);
    }
  }
  // The verifying pages decrypt on threads of their own, as real pages do (bench/lib/verifier.mjs).
  const verifiers = PHASES.has("latency") ? Array.from({ length: CFG.latencyVerifying }, () => new Verifier(stack.dir)) : [];
  // The senders' POSTs are made and timed on a thread of their own (bench/lib/poster.mjs).
  const poster = PHASES.has("latency") ? new Poster() : null;
  for (const n of PHASES.has("latency") ? CFG.latencyLevels : []) {
    try {
      // Raw and web rounds alternate, so that both see the same machine (its noise moves either by
      // tens of percent from one minute to the next).
      const clients = full.slice(0, n);
      const rounds = { base: new Round(n - 1), web: new Round(n - 1) };
      const cpu = { base: [], web: [] };
      const perRound = Math.ceil(CFG.latencyMessages / CFG.latencyRounds);
      for (let r = 0; r < CFG.latencyRounds; r++) {
        cpu.base.push(await rawLatency(stack, pids, channelA, clients, perRound, CFG.latencyRate, rounds.base, poster));
        cpu.web.push(await webLatency(c, stack, pids, channelA, clients, perRound, CFG.latencyRate, rounds.web, verifiers, poster));
      }
      const base = { ...rounds.base.result(), cpu: mergeCpu(cpu.base) };
      const web = { ...rounds.web.result(), cpu: mergeCpu(cpu.web) };
      log(
        `  baseline ${n} subscribers: p50 ${fmt(base.p50, 1)} p95 ${fmt(base.p95, 1)} p99 ${fmt(base.p99, 1)} ms (${base.n} samples, ${base.lost} lost)`,
      );
      log(
        `  web ${n} clients: p50 ${fmt(web.p50, 1)} p95 ${fmt(web.p95, 1)} p99 ${fmt(web.p99, 1)} ms (${web.n} samples, ${web.lost} lost); POST p50 ${fmt(web.post.p50, 1)} ms; CPU PB ${fmt(web.cpu.pocketbase)}% web ${fmt(web.cpu.web)}% bench ${fmt(web.cpu.bench)}% other ${fmt(web.cpu.other)}%`,
      );
      results.latency[n] = { web, base };
    } catch (error) {
      log(`latency phase with ${n} clients failed: ${error.message}`);
      results.errors.push(`latency ${n}: ${error.message}`);
      closeStreams(full);
    }
  }

  await Promise.all([...verifiers.map((v) => v.close()), poster?.close()]);

  // ---- 1b. typing indicators: the POST to the event on another member's open page ----
  try {
    results.typing = await measureTyping(channelA, full.slice(1, 21), full[0]);
    log(
      `typing: ${results.typing.heard}/${results.typing.sent} heard, p50 ${fmt(results.typing.p50, 1)} ms, p95 ${fmt(results.typing.p95, 1)} ms`,
    );
  } catch (error) {
    log(`typing phase failed: ${error.message}`);
    results.errors.push(`typing: ${error.message}`);
  }

  // ---- 2. fan-out throughput to a 50-member channel ----
  if (PHASES.has("fanout")) {
    try {
      const members = full.slice(0, CFG.fanoutMembers);
      const base = await rawFanout(stack, pids, channelB, members, CFG.fanoutSeconds);
      log(`  fan-out baseline (raw PocketBase): ${fmt(base.deliveriesPerSecond)} deliveries/s, ${fmt(base.postsPerSecond, 1)} posts/s`);
      const web = await webFanout(c, stack, pids, channelB, members, CFG.fanoutSeconds);
      log(
        `  fan-out web: ${fmt(web.deliveriesPerSecond)} deliveries/s, ${fmt(web.postsPerSecond, 1)} posts/s, latency p50 ${fmt(web.latency.p50)} p99 ${fmt(web.latency.p99)} ms, ${web.lost} lost; CPU PB ${fmt(web.cpu.pocketbase)}% web ${fmt(web.cpu.web)}% bench ${fmt(web.cpu.bench)}% other ${fmt(web.cpu.other)}%`,
      );
      results.fanout = { web, base };
    } catch (error) {
      log(`fan-out phase failed: ${error.message}`);
      results.errors.push(`fan-out: ${error.message}`);
      closeStreams(full);
    }
  }

  // ---- 3. history and first load in chromium ----
  if (PHASES.has("browser")) {
    await historyPhase({ c, stack, pids, full, reader, channels: { C: channelC, D: channelD, E: channelE, M: channelM }, results, log });
  }

  // ---- 3b. local search in chromium (issue 14) ----
  if (PHASES.has("search")) {
    log("search: index of the app's own code in chromium, then backfill and search to the opened message ...");
    try {
      results.search = await searchPhase({ root, stack, c, reader, tag, log, quick: QUICK });
    } catch (error) {
      log(`search phase failed: ${error.message}`);
      results.search = { error: String(error.message ?? error) };
    }
  }

  // ---- 3c. single sign-on in chromium: new devices, the provider, the passphrase (issue 44) ----
  if (PHASES.has("sso")) results.sso = await ssoPhase({ stack, tag, log });

  // ---- 4. capacity ramp ----
  results.capacity = { levels: [], skipped: null };
  if (!PHASES.has("capacity")) {
    results.capacity.skipped = "not selected (BENCH_PHASES)";
  } else if (timeLeft() < 120_000) {
    results.capacity.skipped = "time budget used up";
  } else {
    const ramp = await capacityPhase({ root, c, stack, pids, channel: channelCap, full, results, log, timeLeft });
    Object.assign(results.capacity, ramp);
  }

  // ---- 5. retention sweep (last: it writes a million rows into the database) ----
  if (PHASES.has("retention")) {
    log("retention: old messages written into the database, then one sweep ...");
    try {
      results.retention = await retentionPhase({ stack, c, reader, tag, log });
    } catch (error) {
      log(`retention phase failed: ${error.message}`);
      results.retention = { error: String(error.message ?? error) };
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
