// The search phase of `npm run bench` on its own: `node bench/search.mjs` (BENCH_QUICK=1 for 20,000
// indexed messages instead of 100,000). Starts the stack, measures, prints the figures; the full bench
// (bench/run.mjs, BENCH_PHASES) runs the same phase and writes docs/benchmarks.md.
import { searchRows } from "./lib/report.mjs";
import { searchPhase } from "./lib/search.mjs";
import { runStandalone } from "./lib/standalone.mjs";

const QUICK = process.env.BENCH_QUICK === "1";

await runStandalone("search", "bs", async ({ root, stack, c, reader, tag, log }) =>
  searchRows({ search: await searchPhase({ root, stack, c, reader, tag, log, quick: QUICK }) }),
);
