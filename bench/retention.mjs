// The retention phase of `npm run bench` on its own: `node bench/retention.mjs`
// (BENCH_RETENTION_MESSAGES=N for another size than 1,000,000). Starts the stack, measures, prints the
// figures; the full bench (bench/run.mjs, BENCH_PHASES) runs the same phase and writes docs/benchmarks.md.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { signUpFull } from "./lib/chat.mjs";
import { loadClientCrypto } from "./lib/crypto.mjs";
import { retentionPhase, retentionRows } from "./lib/retention.mjs";
import { startStack } from "./lib/stack.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const started = Date.now();
const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);

execFileSync("bash", ["scripts/ensure-deps.sh"], { stdio: ["ignore", "inherit", "inherit"] });
const stack = await startStack(root, {});
try {
  const tag = randomBytes(3).toString("hex");
  const c = await loadClientCrypto(root, stack.dir);
  const reader = await signUpFull(c, stack.webUrl, {
    username: `br${tag}`,
    email: `br${tag}@example.test`,
    password: `pw-${tag}-${randomBytes(6).toString("hex")}`,
  });
  log("retention phase ...");
  const retention = await retentionPhase({ stack, c, reader, tag, log });
  console.log("");
  for (const row of retentionRows({ retention })) console.log(`| ${row.join(" | ")} |`);
} finally {
  await stack.stop();
}
