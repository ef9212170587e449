// The real stack on loopback: our PocketBase build on a temporary data directory, started the way the
// tests start it (scripts/lib/pocketbase.mjs; rate limiter exempting loopback), and the production web
// server (server.mjs).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { request } from "./http.mjs";
import { seedListeners } from "./seed.mjs";
import { childPids } from "./procs.mjs";
import {
  createSuperuser,
  pocketbaseBinary,
  proxySecret,
  spawnPocketBase,
  stopProcess,
  superuserToken,
  updateSettings,
  waitHealthy,
} from "../../scripts/lib/pocketbase.mjs";

export { cpuWindow, fdCount, rssMb } from "./procs.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Waits until the web server answers its front page (below 500). */
async function waitWebServer(url, proc, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`web server exited during start-up (code ${proc.exitCode})`);
    try {
      const res = await request(url, { timeoutMs: 2_000 });
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`web server did not answer within ${timeoutMs} ms`);
}

/**
 * Starts PocketBase and the web tier. Options: `listeners` accounts seeded before PocketBase starts
 * (ids `prefix` + index, see seed.mjs); `webProcesses` (WEB_PROCESSES of the web server; default: the
 * server's own default, one per core).
 */
export async function startStack(root, { listeners = 0, prefix = "", webProcesses } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "chatcrypt-bench-"));
  const dataDir = path.join(dir, "pb_data");
  const logPath = path.join(dir, "stack.log");
  const log = createWriteStream(logPath, { flags: "a" });
  const binary = pocketbaseBinary(root);
  const superuser = await createSuperuser(root, dataDir, "bench");
  const seeded = listeners > 0 ? await seedListeners(root, binary, dir, dataDir, listeners, prefix) : [];

  const pbPort = await freePort();
  const pbUrl = `http://127.0.0.1:${pbPort}`;
  const pb = spawnPocketBase({ root, address: `127.0.0.1:${pbPort}`, dataDir });
  pb.stdout.pipe(log, { end: false });
  pb.stderr.pipe(log, { end: false });
  const sessionSecret = randomBytes(32).toString("base64url");
  const stack = {
    dir,
    dataDir,
    logPath,
    pbUrl,
    pb,
    web: null,
    webUrl: null,
    webPids: [],
    superuser,
    superuserToken: "",
    sessionSecret,
    seeded,
  };
  stack.stop = async () => {
    await stopProcess(stack.web);
    await stopProcess(stack.pb);
    if (!log.closed) log.end();
    // (BENCH_KEEP_DIR=1 keeps the data directory, e.g. to read PocketBase's request log in auxiliary.db)
    if (!process.env.BENCH_KEEP_DIR) await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitHealthy(pbUrl, pb);
    // Exempt loopback from PocketBase's rate limiter (the web server forwards the client's address:
    // 127.0.0.1, or 127.0.0.N for the capacity ramp's listener processes, bench/lib/listener.mjs).
    // Batches: the capacity ramp's memberships are created by a superuser, 500 per request.
    stack.superuserToken = await superuserToken(pbUrl, superuser);
    // BENCH_PB_NICE=<n>: PocketBase's threads at that nice value (ADR 90); every thread, since a nice
    // value is a thread's on Linux (threads made later inherit their maker's)
    if (process.env.BENCH_PB_NICE)
      for (const tid of readdirSync(`/proc/${pb.pid}/task`)) os.setPriority(Number(tid), Number(process.env.BENCH_PB_NICE));
    await updateSettings(pbUrl, stack.superuserToken, {
      rateLimits: { excludedIPs: ["127.0.0.0/8"] },
      batch: { enabled: true, maxRequests: 500, timeout: 60 },
    });

    const webPort = await freePort();
    stack.webUrl = `http://127.0.0.1:${webPort}`;
    // BENCH_WEB_CPU_PROFILE=<dir>: the web server writes a V8 CPU profile there when it stops.
    const profileDir = process.env.BENCH_WEB_CPU_PROFILE;
    const nodeArgs = profileDir
      ? [
          "--cpu-prof",
          `--cpu-prof-dir=${path.resolve(profileDir)}`,
          `--cpu-prof-interval=${process.env.BENCH_WEB_CPU_PROFILE_INTERVAL ?? 1000}`,
        ]
      : [];
    // BENCH_WEB_TRACE_GC=1: every collection of the web processes in the stack's log, each line with the
    // epoch milliseconds it was written (to line up with a capacity round's slowest POSTs, ADR 90)
    if (process.env.BENCH_WEB_TRACE_GC) nodeArgs.push("--trace-gc");
    stack.web = spawn(process.execPath, [...nodeArgs, "server.mjs"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PB_URL: pbUrl,
        HOST: "127.0.0.1",
        PORT: String(webPort),
        SESSION_SECRET: sessionSecret,
        PB_PROXY_SECRET: proxySecret(),
        ...(webProcesses ? { WEB_PROCESSES: String(webProcesses) } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (process.env.BENCH_WEB_TRACE_GC) {
      let rest = "";
      stack.web.stdout.on("data", (chunk) => {
        const lines = (rest + chunk).split("\n");
        rest = lines.pop();
        for (const line of lines) log.write(`${Date.now()} ${line}\n`);
      });
    } else stack.web.stdout.pipe(log, { end: false });
    stack.web.stderr.pipe(log, { end: false });
    await waitWebServer(`${stack.webUrl}/`, stack.web);
    stack.webPids = await webProcessPids(stack.web.pid, webProcesses ?? os.availableParallelism());
  } catch (error) {
    await new Promise((r) => log.end(r));
    try {
      const tail = readFileSync(logPath, "utf8").split("\n").slice(-30).join("\n");
      if (tail.trim()) console.error(`--- stack log (last lines) ---\n${tail}\n---`);
    } catch {
      // no log
    }
    await stack.stop();
    throw error;
  }
  return stack;
}

/**
 * The web tier's processes: the web server itself, and the processes it runs when WEB_PROCESSES is
 * above one (its children; waits until `expected` of them run).
 */
async function webProcessPids(pid, expected) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const children = childPids(pid);
    if (expected <= 1 || children.length >= expected || Date.now() > deadline) return children.length ? [pid, ...children] : [pid];
    await sleep(100);
  }
}
