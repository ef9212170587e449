// One phase of `npm run bench` run on its own (bench/search.mjs, bench/retention.mjs): builds what is
// missing, starts the stack, signs up the reader the phase measures with, runs it, prints its table's
// rows and stops the stack.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { signUpFull } from "./chat.mjs";
import { loadClientCrypto } from "./crypto.mjs";
import { startStack } from "./stack.mjs";

/**
 * @param {string} name the phase, for the log
 * @param {string} prefix the reader's username prefix
 * @param {(ctx: {root: string, stack: object, c: object, reader: object, tag: string, log: (line: string) => void}) => Promise<string[][]>} run
 *   measures and answers the table's rows
 */
export async function runStandalone(name, prefix, run) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  process.chdir(root);
  const started = Date.now();
  const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);

  execFileSync("bash", ["scripts/ensure-deps.sh"], { stdio: ["ignore", "inherit", "inherit"] });
  const stack = await startStack(root, {});
  try {
    const tag = randomBytes(3).toString("hex");
    const c = await loadClientCrypto(root, stack.dir);
    const reader = await signUpFull(c, stack.webUrl, {
      username: `${prefix}${tag}`,
      email: `${prefix}${tag}@example.test`,
      password: `pw-${tag}-${randomBytes(6).toString("hex")}`,
    });
    log(`${name} phase ...`);
    const rows = await run({ root, stack, c, reader, tag, log });
    console.log("");
    for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  } finally {
    await stack.stop();
  }
}
