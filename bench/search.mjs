// The search phase of `npm run bench` on its own: `node bench/search.mjs` (BENCH_QUICK=1 for 20,000
// indexed messages instead of 100,000). Starts the stack, measures, prints the figures; the full bench
// (bench/run.mjs, BENCH_PHASES) runs the same phase and writes docs/benchmarks.md.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { signUpFull } from "./lib/chat.mjs";
import { loadClientCrypto } from "./lib/crypto.mjs";
import { searchRows } from "./lib/report.mjs";
import { searchPhase } from "./lib/search.mjs";
import { startStack } from "./lib/stack.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const QUICK = process.env.BENCH_QUICK === "1";
const started = Date.now();
const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);

execFileSync("bash", ["scripts/ensure-deps.sh"], { stdio: ["ignore", "inherit", "inherit"] });
const stack = await startStack(root, {});
try {
  const tag = randomBytes(3).toString("hex");
  const c = await loadClientCrypto(root, stack.dir);
  const reader = await signUpFull(c, stack.webUrl, {
    username: `bs${tag}`,
    email: `bs${tag}@example.test`,
    password: `pw-${tag}-${randomBytes(6).toString("hex")}`,
  });
  log("search phase ...");
  const search = await searchPhase({ root, stack, c, reader, tag, log, quick: QUICK });
  console.log("");
  for (const row of searchRows({ search })) console.log(`| ${row.join(" | ")} |`);
} finally {
  await stack.stop();
}
