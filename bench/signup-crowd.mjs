// Sign-ups under a crowd (part of `npm run bench`): the whole product as `npm start` runs it
// (PocketBase, Litestream replicating, the web server) on temporary directories, and 100 sign-ups,
// four at a time, each from its own loopback address (127.88.x.y) as people opening an invite link
// at 9:00 would. Prints and writes the p50/p95/max of the sign-up request and every failure; target:
// p95 under 2 s, no failure. Writes docs/benchmarks-signup.md.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./lib/stack.mjs";
import { percentile } from "./lib/stats.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SIGNUPS = process.env.BENCH_QUICK === "1" ? 40 : 100;
const PARALLEL = 4;
const TARGET_P95_MS = 2_000;
const log = (line) => console.log(`[signup] ${line}`);

function call(url, { method = "GET", headers = {}, body, localAddress }) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, localAddress, agent: false }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error("timed out after 30 s")));
    req.on("error", reject);
    req.end(body);
  });
}

async function startProduct() {
  const [port, pbPort, apertiumPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "chatcrypt-signup-bench-"));
  const { APERTIUM_URL: _a, SESSION_SECRET: _s, NODE_ENV: _n, ...inherited } = process.env;
  const child = spawn("bash", ["scripts/start.sh"], {
    cwd: root,
    detached: true,
    stdio: "ignore",
    env: {
      ...inherited,
      HOST: "127.0.0.1",
      PORT: String(port),
      PB_HTTP: `127.0.0.1:${pbPort}`,
      PB_DATA: path.join(dataDir, "data"),
      REPLICA_DIR: path.join(dataDir, "replica"),
      APERTIUM_PORT: String(apertiumPort),
      TRANSLATE_PROVIDER: "none",
    },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 200) {
    if (waited > 240_000) throw new Error("the product did not answer within 4 minutes");
    const answer = await call(url, {}).catch(() => null);
    if (answer?.status === 200) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(child.pid, "SIGINT");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // the group is gone
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function signUpOnce(url, n) {
  const localAddress = `127.88.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  const page = await call(`${url}/`, { headers: { Accept: "text/html" }, localAddress });
  const csrf = /<meta name="csrf-token" content="([^"]*)"/.exec(page.text)?.[1]?.replace(/&amp;/g, "&") ?? "";
  const cookie = (page.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]).join("; ");
  const id = randomBytes(15)
    .toString("hex")
    .replace(/[^a-z0-9]/g, "")
    .slice(0, 15)
    .padEnd(15, "a");
  const body = JSON.stringify({
    id,
    email: `crowd-${id}@example.test`,
    loginSecret: randomBytes(32).toString("base64url"),
    username: `crowd_${id.slice(0, 10)}`,
    ecdhPublicKey: randomBytes(65).toString("base64"),
    rsaPublicKey: randomBytes(294).toString("base64"),
    encryptedEcdhPrivateKey: randomBytes(200).toString("base64url"),
    encryptedRsaPrivateKey: randomBytes(1300).toString("base64url"),
    kdfIterations: 600_000,
  });
  const started = performance.now();
  const answer = await call(`${url}/api/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Cookie: cookie, Accept: "application/json" },
    body,
    localAddress,
  }).catch((error) => ({ status: 0, text: error.message }));
  return { ms: performance.now() - started, failure: answer.status === 200 ? null : `${answer.status} ${answer.text.slice(0, 120)}` };
}

const product = await startProduct();
const results = [];
try {
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < SIGNUPS) results.push(await signUpOnce(product.url, next++));
    }),
  );
} finally {
  await product.stop();
}
const times = results.map((r) => r.ms).sort((a, b) => a - b);
const failures = results.flatMap((r) => (r.failure ? [r.failure] : []));
const p50 = percentile(times, 50);
const p95 = percentile(times, 95);
const met = p95 < TARGET_P95_MS && failures.length === 0;
const lines = [
  "# Sign-ups under a crowd",
  "",
  `Written by \`npm run bench\` (bench/signup-crowd.mjs) on ${new Date().toISOString().slice(0, 10)}: the whole product as \`npm start\` runs it`,
  `(Litestream replicating), ${SIGNUPS} sign-ups, ${PARALLEL} at a time, each from its own loopback address, on ${os.cpus().length} cores.`,
  "",
  "| figure | measured | target | met? |",
  "| --- | --- | --- | --- |",
  `| sign-up p50 | ${p50.toFixed(0)} ms | | |`,
  `| sign-up p95 | ${p95.toFixed(0)} ms | under ${TARGET_P95_MS} ms | ${p95 < TARGET_P95_MS ? "yes" : "no"} |`,
  `| slowest | ${times.at(-1).toFixed(0)} ms | | |`,
  `| failed | ${failures.length} of ${SIGNUPS} | 0 | ${failures.length === 0 ? "yes" : "no"} |`,
  "",
  ...(failures.length ? ["Failures:", "", ...failures.slice(0, 20).map((f) => `- ${f}`), ""] : []),
];
writeFileSync(path.join(root, "docs", "benchmarks-signup.md"), lines.join("\n"));
log(
  `sign-up p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms (target < ${TARGET_P95_MS}), ${failures.length} failed of ${SIGNUPS}: ${met ? "met" : "MISSED"}`,
);
