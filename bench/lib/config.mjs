// The bench's settings: BENCH_QUICK=1 for a short run, BENCH_PHASES for a subset, BENCH_* overrides (bench/run.mjs).
export const QUICK = process.env.BENCH_QUICK === "1";
export const CFG = QUICK
  ? {
      fullUsers: 25,
      latencyLevels: [5, 20],
      latencyMessages: 20,
      latencyRate: 5,
      capacityLevels: [50, 150, 300],
      capacityRates: [
        { rate: 5, seconds: 4 },
        { rate: 50, seconds: 2 },
      ],
      capacitySenders: 5,
      capacityVerifying: 5,
      fanoutMembers: 10,
      fanoutSeconds: 3,
      historyMessages: 300,
      deepHistoryMessages: 20_000,
    }
  : {
      fullUsers: 100,
      latencyLevels: [10, 100],
      // (120: a p50 over 60 messages moved the ratio by about ±0.06 from run to run on the same code)
      latencyMessages: 120,
      latencyRate: 5,
      // Past the 10,000 target until delivery breaks at 5 messages/s. The simulated pages are spread
      // over listener processes and source addresses (bench/lib/listener.mjs); what bounds the ramp
      // then is the web tier's open-file limit (one descriptor per stream in the web process that
      // serves it: up to about 37,700 clients with two web processes under a 20,000 limit each).
      capacityLevels: [
        1_000, 1_500, 2_000, 3_000, 4_000, 5_000, 6_000, 8_000, 10_000, 12_000, 14_000, 16_000, 20_000, 24_000, 30_000, 36_000,
      ],
      capacityRates: [
        { rate: 5, seconds: 10 },
        { rate: 50, seconds: 5 },
      ],
      capacitySenders: 20,
      // Full pages among the clients (they verify and decrypt every message on the bench's one
      // thread); the others are held by bench/listener.
      capacityVerifying: 5,
      fanoutMembers: 50,
      fanoutSeconds: 10,
      historyMessages: 1000,
      // The history page is timed again in a channel this deep (issue 29: its cost must not grow).
      deepHistoryMessages: 100_000,
    };
Object.assign(CFG, {
  signupConcurrency: 4,
  openConcurrency: 20,
  capacityOpenConcurrency: 50,
  // Clients that verify and decrypt every message in the latency phase, each on a worker thread of its
  // own (bench/lib/verifier.mjs); the others only time the receipt. Few, because the machine's cores
  // are shared with the web server and PocketBase.
  latencyVerifying: 2,
  // The latency phase's messages per level are sent in this many rounds, raw and web alternating.
  latencyRounds: 3,
  // Before the latency levels, both paths carry the fan-out workload for this long, untimed: V8
  // compiles a function's optimized code only after many runs, so a web server in its first minutes
  // is slower than the same server in its steady state (PocketBase is compiled ahead of time).
  latencyWarmSeconds: 10,
  fanoutVerifying: 10,
  fanoutInflight: 4,
  historySenders: 5,
  // The long history scrolled from the bottom to the top (issue 29: 10,000 loaded messages).
  scrollMessages: process.env.BENCH_SCROLL_MESSAGES ? Number(process.env.BENCH_SCROLL_MESSAGES) : 10_000,
  capacityP99Ms: 250,
  drainMs: 5_000,
  levelOpenBudgetMs: 120_000,
  capacityLevelBudgetMs: 45_000,
  // A cap on the whole run: the ramp starts no level it could not finish within it.
  totalBudgetMs: 20 * 60_000,
  ...(process.env.BENCH_CAPACITY_LEVELS ? { capacityLevels: process.env.BENCH_CAPACITY_LEVELS.split(",").map(Number) } : {}),
  webProcesses: process.env.BENCH_WEB_PROCESSES ? Number(process.env.BENCH_WEB_PROCESSES) : undefined,
});

// BENCH_PHASES=latency,fanout,browser,search,sso,capacity,retention runs a subset (default: all); `node
// bench/search.mjs` runs the search phase alone, `node bench/sso.mjs` single sign-on, `node
// bench/retention.mjs` the retention sweep.
export const PHASES = new Set(
  (process.env.BENCH_PHASES || "latency,fanout,browser,search,sso,capacity,retention").split(",").map((x) => x.trim()),
);

// The ramp alone needs only its senders and verifying pages (and the typing check's 21) signed up
// the browser's way: each such sign-up costs a PBKDF2 600k and key generation.
if ([...PHASES].every((phase) => phase === "capacity")) CFG.fullUsers = Math.min(CFG.fullUsers, 25);
// Listening accounts: as many as the ramp's last level needs beyond the full pages (seed.mjs).
CFG.listeners = Math.max(0, Math.max(...CFG.capacityLevels) - CFG.fullUsers);
