// The single sign-on phase of `npm run bench` on its own: `node bench/sso.mjs` (BENCH_SSO_RUNS for
// another number of sign-ins than 5). Starts the stack and the test identity provider, measures, prints
// the row; the full bench (bench/run.mjs, BENCH_PHASES) runs the same phase and writes docs/benchmarks.md.
import { ssoPhase, ssoRows } from "./lib/sso.mjs";
import { runStandalone } from "./lib/standalone.mjs";

await runStandalone("sso", "bo", async ({ stack, tag, log }) => ssoRows({ sso: await ssoPhase({ stack, tag, log }) }));
