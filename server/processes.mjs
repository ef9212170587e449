// The web tier on one machine: WEB_PROCESSES processes (default: one per core) serve the same port.
// The first process forks the others with node:cluster, hands them the connections in turn, restarts
// any that dies and stops them all on SIGTERM or SIGINT. Each process keeps its own relay connection
// to PocketBase (docs/decisions/0013-relay.md); sessions live in signed cookies, so any process can
// serve any request.
import cluster from "node:cluster";
import os from "node:os";

const RESTART_DELAY_MS = 1_000;
const EARLY_EXIT_MS = 10_000; // a process that ends sooner than this counts towards a crash loop
const MAX_EARLY_EXITS = 5;
const STOP_TIMEOUT_MS = 10_000;

/** How many web processes to run: WEB_PROCESSES (1 to 64), or the number of cores. */
export function webProcessCount(value = process.env.WEB_PROCESSES) {
  const v = (value ?? "").trim();
  if (v === "") return os.availableParallelism();
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 64) {
    console.error(`WEB_PROCESSES="${value}" is not a number from 1 to 64.`);
    process.exit(1);
  }
  return Number(v);
}

/**
 * Starts the web processes when more than one is wanted. Returns true in the process that supervises
 * them (it serves nothing itself), false in a web process (a worker, or the only process).
 */
export function superviseWebProcesses() {
  if (!cluster.isPrimary) return false;
  const count = webProcessCount();
  if (count === 1) return false;

  let stopping = false;
  let earlyExits = 0;
  const started = new Map();
  const fork = () => started.set(cluster.fork().id, Date.now());
  for (let i = 0; i < count; i++) fork();
  console.log(`ChatCrypt web tier: ${count} processes (WEB_PROCESSES), supervisor pid ${process.pid}`);

  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    earlyExits = Date.now() - (started.get(worker.id) ?? 0) < EARLY_EXIT_MS ? earlyExits + 1 : 0;
    started.delete(worker.id);
    if (earlyExits >= MAX_EARLY_EXITS) {
      console.error(`Web processes keep ending right after they start (last: ${signal ?? `code ${code}`}); stopping.`);
      process.exit(1);
    }
    console.error(`Web process ${worker.process.pid} ended (${signal ?? `code ${code}`}); starting another.`);
    setTimeout(fork, RESTART_DELAY_MS);
  });

  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker?.process.kill("SIGTERM");
    setTimeout(() => process.exit(1), STOP_TIMEOUT_MS).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  return true;
}
