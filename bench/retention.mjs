// The retention phase of `npm run bench` on its own: `node bench/retention.mjs`
// (BENCH_RETENTION_MESSAGES=N for another size than 1,000,000). Starts the stack, measures, prints the
// figures; the full bench (bench/run.mjs, BENCH_PHASES) runs the same phase and writes docs/benchmarks.md.
import { retentionPhase, retentionRows } from "./lib/retention.mjs";
import { runStandalone } from "./lib/standalone.mjs";

await runStandalone("retention", "br", async ({ stack, c, reader, tag, log }) =>
  retentionRows({ retention: await retentionPhase({ stack, c, reader, tag, log }) }),
);
