// The capacity ramp: connect more and more simulated pages to one channel, and at each level send at
// every message rate until delivery breaks (p99 over the limit, or anything lost). The last level that
// held, per rate, is the ceiling. The first clients are full pages (they verify and decrypt every
// message; the senders are among them); the others are streams held by bench/listener, which only
// time the receipt (listener.mjs).
import { ivOf, verifyAndDecrypt } from "./chat.mjs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Listener } from "./listener.mjs";
import { profileRound, slowCreates } from "./pb-profiles.mjs";
import { cpuWindow, fdCount, rssMb } from "./stack.mjs";
import { pool, sleep, summary } from "./stats.mjs";

/** Deliveries of one sending round, keyed by the envelope's iv; typed arrays to stay cheap at 10,000+ clients. */
export class Tally {
  constructor(clients, onSending = () => {}) {
    this.clients = clients;
    this.onSending = onSending;
    this.ivs = new Map();
    this.sentAt = [];
    this.senders = [];
    this.seen = [];
    this.latencies = [];
    this.encrypt = [];
    this.post = [];
    this.posts = [];
    this.errors = 0;
    this.bad = 0;
  }
  sending(iv, t0, sender) {
    this.onSending(iv, t0);
    this.ivs.set(iv, this.sentAt.length);
    this.sentAt.push(t0);
    this.senders.push(sender);
    this.seen.push(new Uint8Array(this.clients));
  }
  /** A POST's start and its time: the slowest are listed with when they started in the round. */
  posted(start, ms) {
    this.posts.push([start, ms]);
  }
  /** The `n` slowest POSTs: [seconds since the round's first send, ms], slowest first. */
  slowest(n = 5) {
    const first = this.sentAt[0] ?? 0;
    return [...this.posts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([start, ms]) => [(start - first) / 1000, ms]);
  }
  received(iv, client, at) {
    const i = this.ivs.get(iv);
    if (i === undefined || client >= this.clients || this.senders[i] === client || this.seen[i][client]) return;
    this.seen[i][client] = 1;
    this.latencies.push(at - this.sentAt[i]);
  }
  /** Every message reaches every client here but its sender (senders past `clients` are elsewhere). */
  get expected() {
    let n = 0;
    for (const sender of this.senders) n += sender < this.clients ? this.clients - 1 : this.clients;
    return n;
  }
  /** Waits until every delivery arrived (here and, counted by `elsewhere`, in the listener) or `ms` passed. */
  async drain(ms, elsewhere = { delivered: async () => 0, expected: 0 }) {
    const deadline = performance.now() + ms;
    while (performance.now() < deadline) {
      if (this.latencies.length >= this.expected && (await elsewhere.delivered()) >= elsewhere.expected) return;
      await sleep(50);
    }
  }
  /** The round's figures, with the listener's deliveries ({ delivered, expected, latencies }) added. */
  result(extra = { expected: 0, latencies: [] }) {
    const latencies = extra.latencies.length ? [...this.latencies, ...extra.latencies] : this.latencies;
    const expected = this.expected + extra.expected;
    const lost = Math.max(0, expected - latencies.length);
    const all = lost ? [...latencies, ...Array(lost).fill(Infinity)] : latencies;
    return {
      ...summary(all),
      delivered: latencies.length,
      expected,
      lost,
      errors: this.errors,
      bad: this.bad,
      messages: this.sentAt.length,
      post: summary(this.post),
    };
  }
}

/** Sends `count` messages at `rate`/s (open loop: a slow answer does not delay the next send). */
export async function drive(count, rate, send) {
  const interval = 1000 / rate;
  const start = performance.now();
  const inflight = new Set();
  for (let i = 0; i < count; i++) {
    const wait = start + i * interval - performance.now();
    if (wait > 0) await sleep(wait);
    const p = send(i).finally(() => inflight.delete(p));
    inflight.add(p);
    if (inflight.size >= 64) await Promise.race(inflight);
  }
  await Promise.all(inflight);
}

/**
 * Runs the ramp. `pages`: the full pages (WebClients; the first `cfg.capacitySenders` send, the first
 * `cfg.capacityVerifying` verify and decrypt), then `listeners` ({ cookie }). `send(tally, sender,
 * senderIndex, i)` posts one message. Returns { levels, held, failed, stopped }.
 */
export async function capacityRamp({ root, c, stack, pids: basePids, channel, pages, listeners, cfg, log, timeLeft, send }) {
  const verifying = cfg.capacityVerifying;
  const cookies = [...pages.slice(verifying).map((p) => p.cookieHeader()), ...listeners.map((l) => l.cookie)];
  const total = verifying + cookies.length;
  const levels = cfg.capacityLevels.filter((level) => level <= total);
  const listener = await Listener.start(root, stack.dir, Math.max(0, (levels.at(-1) ?? 0) - verifying));
  const pids = { ...basePids, bench: [basePids.bench, ...listener.pids] };
  // Each web process holds one descriptor per stream it serves. The streams are dealt out in turn,
  // not quite evenly (5,868 and 6,267 of 12,000 in one run): a step needs 5% and 200 descriptors to spare.
  const webServing = Math.max(1, basePids.web.length > 1 ? basePids.web.length - 1 : 1);
  const webFdsAt = (level) => (level / webServing) * 1.05 + 200;
  const streams = [];
  let tally = null;
  let ended = 0;

  const openPage = async (i) => {
    const page = pages[i];
    streams[i] = await page.openEvents(
      channel.id,
      (event) => {
        if (event.type !== "message") return;
        const t = tally;
        const iv = ivOf(event.message.encryptedContent);
        if (!t || !iv || !t.ivs.has(iv)) return;
        verifyAndDecrypt(c, page, channel, event.message).then(
          (text) => {
            if (!text.startsWith("bench ")) t.bad++;
            t.received(iv, i, performance.now());
          },
          () => t.bad++,
        );
      },
      60_000,
      () => ended++,
    );
  };

  const out = { levels: [], held: {}, failed: {}, stopped: null, benchPids: pids.bench };
  let opened = 0;
  let listening = 0;
  try {
    for (const level of cfg.capacityLevels) {
      if (level > total) {
        out.stopped = `only ${total} accounts`;
        break;
      }
      if (webFdsAt(level) > cfg.fdLimit) {
        out.stopped = `the web tier's open-file limit: ${fmt(level / webServing)} streams per web process at ${level} clients, limit ${cfg.fdLimit} per process (${webServing} web process${webServing > 1 ? "es" : ""})`;
        break;
      }
      if (timeLeft() < cfg.capacityLevelBudgetMs) {
        out.stopped = "time budget used up";
        break;
      }
      const t0 = performance.now();
      const cpuOpen = cpuWindow(pids);
      let failed = 0;
      let error = "";
      if (opened < verifying) {
        await pool(
          Array.from({ length: Math.min(level, verifying) - opened }, (_, k) => opened + k),
          cfg.openConcurrency,
          (i) => openPage(i).catch((e) => (failed++, (error ||= e.message))),
        );
      }
      const want = Math.max(0, level - verifying) - listening;
      if (want > 0) {
        const r = await listener.open(
          stack.webUrl,
          `/api/events?channel=${channel.id}`,
          cookies.slice(listening, listening + want),
          cfg.openConcurrency,
        );
        failed += r.failed;
        error ||= r.error;
        listening += r.ok;
      }
      const open = streams.filter(Boolean).length + listening;
      opened = level;
      const entry = { level, open, failed, openSeconds: (performance.now() - t0) / 1000, openCpu: cpuOpen(), rounds: [] };
      out.levels.push(entry);
      log(
        `  capacity ${level}: ${open} streams open (${failed} failed${error ? `: ${error}` : ""}) in ${entry.openSeconds.toFixed(1)} s (CPU PB ${fmt(entry.openCpu.pocketbase)}% web ${fmt(entry.openCpu.web)}% bench ${fmt(entry.openCpu.bench)}%)`,
      );
      if (open < level) {
        entry.incomplete = true;
        entry.rss = memory(pids);
        out.stopped = `only ${open} of ${level} streams opened`;
        break;
      }
      await sleep(2_000);
      entry.idle = {
        rss: memory(pids),
        fds: { pocketbase: fdCount(pids.pocketbase), web: fdCount(pids.web), bench: fdCount(pids.bench) },
        fdsEach: { web: pids.web.map((pid) => fdCount(pid)), bench: pids.bench.map((pid) => fdCount(pid)) },
      };

      for (const { rate, seconds } of cfg.capacityRates) {
        if (out.failed[rate]) continue;
        const endedBefore = ended;
        listener.begin();
        const t = new Tally(Math.min(level, verifying), (iv, at) => listener.sent(iv, at));
        tally = t;
        const count = Math.round(rate * seconds);
        const cpu = cpuWindow(pids);
        const profiles = profileRound(level, rate, seconds + 2);
        const startedAt = new Date(Date.now() - 1_000);
        // The bench's own thread times the POSTs: a late answer may be its event loop, not the server.
        const loop = monitorEventLoopDelay({ resolution: 10 });
        loop.enable();
        await drive(count, rate, (k) => send(t, pages[k % cfg.capacitySenders], k % cfg.capacitySenders, k));
        await t.drain(cfg.drainMs, { delivered: () => listener.delivered(), expected: count * listening });
        const usage = cpu();
        loop.disable();
        tally = null;
        const far = await listener.end();
        const r = t.result(far);
        const round = {
          rate,
          seconds,
          ...r,
          cpu: usage,
          rss: memory(pids),
          ended: ended - endedBefore + far.ended,
          loopP99: loop.percentile(99) / 1e6,
          slowest: t.slowest(),
          firstSendAt: t.sentAt[0],
          ok: r.p99 < cfg.capacityP99Ms && r.lost === 0 && r.errors === 0,
        };
        entry.rounds.push(round);
        log(
          `  capacity ${level} at ${rate}/s: p50 ${fmt(r.p50)} p99 ${fmt(r.p99)} ms, ${r.lost} lost of ${r.expected}, ${r.errors} failed posts; POST p50 ${fmt(r.post.p50)} p99 ${fmt(r.post.p99)} ms; CPU PB ${fmt(usage.pocketbase)}% web ${fmt(usage.web)}% (${usage.perProcess.web.map((x) => fmt(x)).join(" + ")}; kernel ${fmt(usage.kernel.web)}%) bench ${fmt(usage.bench)}% (${usage.perProcess.bench.map((x) => fmt(x)).join(" + ")}; kernel ${fmt(usage.kernel.bench)}%) other ${fmt(usage.other)}%; RSS PB ${fmt(round.rss.pocketbase)} MB web ${fmt(round.rss.web)} MB bench ${fmt(round.rss.bench)} MB`,
        );
        log(
          `    bench event loop delay p99 ${fmt(round.loopP99)} ms; slowest POSTs (s into the round: ms) ${round.slowest.map(([at, ms]) => `${at.toFixed(2)}: ${fmt(ms)}`).join(", ")}; first send at ${Math.round(performance.timeOrigin + (round.firstSendAt ?? 0))}`,
        );
        const problems = await profiles?.();
        if (problems?.length) log(`    PocketBase profiles: ${problems.join("; ")}`);
        const inPocketBase = await slowCreates(stack, startedAt).catch((error) => [error.message]);
        if (inPocketBase) log(`    slowest creates in PocketBase (its request log, ms): ${inPocketBase.join(", ")}`);
        if (round.ok && !out.failed[rate]) out.held[rate] = level;
        if (!round.ok) {
          out.failed[rate] = level;
          await sleep(3_000); // let a backlog clear before the next round
        }
      }
      if (out.failed[cfg.capacityRates[0].rate]) {
        out.stopped = `delivery broke at ${level} clients and ${cfg.capacityRates[0].rate} messages/s`;
        break;
      }
    }
    if (!out.stopped && opened >= cfg.capacityLevels.at(-1)) out.stopped = `reached the ramp's end (${cfg.capacityLevels.at(-1)} clients)`;
  } finally {
    for (const s of streams) s?.close();
    listener.close();
  }
  return out;
}

const fmt = (v, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");

/** RSS in MB of PocketBase, of each web process and their sum, and of the bench process. */
function memory(pids) {
  return {
    pocketbase: rssMb(pids.pocketbase),
    web: rssMb(pids.web),
    webEach: pids.web.map((pid) => rssMb(pid)),
    bench: rssMb(pids.bench),
    benchEach: pids.bench.map((pid) => rssMb(pid)),
  };
}
