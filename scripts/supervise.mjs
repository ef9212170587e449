#!/usr/bin/env node
// Keeps the product up (started by scripts/start.sh, i.e. `npm start`): PocketBase, the web server,
// the translation engine (Apertium APy), the LiveKit server (calls) and Litestream run as children; whichever dies is restarted
// with backoff and the others keep serving. While PocketBase is away the web server answers 503
// ("starting up or restarting"). The file mirror of the replica runs in this process.
// See docs/decisions/0012-supervision-and-replication.md.
//
// Settings (environment, exported by start.sh): PB_HTTP, PB_DATA, HOST, PORT, SESSION_SECRET,
// START_APERTIUM=true with APERTIUM_PORT, the replication settings of scripts/lib/replication.mjs and
// the LiveKit settings of scripts/lib/livekit.mjs (LiveKit is not started when LIVEKIT_API_SECRET names
// a LiveKit server run elsewhere, or with LIVEKIT=off).
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { mirrorOnce, replicationConfig, writeLitestreamConfig } from "./lib/replication.mjs";
import { newReplicationWatch, replicationStatus, writeReplicationStatus } from "./lib/replication-health.mjs";
import { livekitKeys, livekitSettings, pocketbaseEnvFor, webEnvFor, writeLivekitConfig } from "./lib/livekit.mjs";
import { pocketbaseBinary, proxySecret, serveArgs } from "./lib/pocketbase.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = process.env;
// PocketBase and the web server share a secret (PB_PROXY_SECRET, a new one each start when unset).
proxySecret();
const PB_HTTP = env.PB_HTTP || "127.0.0.1:8090";
const PB_DATA = path.resolve(env.PB_DATA || path.join(root, "pb_data"));
const HOST = env.HOST || "127.0.0.1";
const PORT = env.PORT || "3000";

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 15_000;
const STABLE_AFTER_MS = 30_000;
const STOP_TIMEOUT_MS = 8_000;
const MIRROR_INTERVAL_MS = 1_000;

const log = (message) => console.log(`${new Date().toISOString()} supervisor: ${message}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Prefixes each line of a child's output with its name. */
function prefixed(stream, name, out) {
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
}

/** Every child started, so that this process never leaves one behind when it ends. */
const children = new Set();

class Child {
  constructor(spec) {
    this.spec = spec;
    this.process = null;
    this.failures = 0;
    this.restartTimer = null;
  }

  start() {
    const { name, command, args, extraEnv, logFile } = this.spec;
    this.startedAt = Date.now();
    // In a process group of its own: a terminal's Ctrl+C reaches only this process, which then stops
    // the children in order (PocketBase before Litestream, so that its last writes are replicated).
    const child = spawn(command, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    this.process = child;
    children.add(this);
    if (logFile) {
      const file = createWriteStream(logFile, { flags: "a" });
      child.stdout.pipe(file);
      child.stderr.pipe(file);
    } else {
      prefixed(child.stdout, name, process.stdout);
      prefixed(child.stderr, name, process.stderr);
    }
    child.on("error", (error) => log(`${name} could not be started: ${error.message}`));
    child.on("exit", (code, signal) => this.exited(child, code, signal));
    log(`started ${name} (pid ${child.pid})`);
  }

  exited(child, code, signal) {
    if (this.process !== child) return;
    this.process = null;
    const ranFor = Date.now() - this.startedAt;
    if (stopping) return;
    this.spec.onExit?.();
    if (ranFor >= STABLE_AFTER_MS) this.failures = 0;
    this.failures++;
    const delay = Math.min(FIRST_DELAY_MS * 2 ** (this.failures - 1), MAX_DELAY_MS);
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    log(
      `${this.spec.name} ${how} after ${(ranFor / 1000).toFixed(1)} s; restarting in ${(delay / 1000).toFixed(2)} s (restart ${this.failures} in a row)`,
    );
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!stopping) this.start();
    }, delay);
  }

  async stop() {
    clearTimeout(this.restartTimer);
    const child = this.process;
    if (!child) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
    log(`stopped ${this.spec.name}`);
  }
}

async function waitForHealth(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return true;
    } catch {
      // not up yet
    }
    await sleep(150);
  }
  return false;
}

let stopping = false;
const replication = replicationConfig(env, { root, dataDir: PB_DATA });

const apertium =
  env.START_APERTIUM === "true"
    ? new Child({
        name: "apertium",
        command: "bash",
        args: ["scripts/start-apertium.sh", env.APERTIUM_PORT || "2737"],
        logFile: path.join(PB_DATA, "apertium.log"),
      })
    : null;
await mkdir(PB_DATA, { recursive: true });
const livekitConfig = env.LIVEKIT_API_SECRET ? null : livekitSettings(env, { root, dataDir: PB_DATA });
const livekitKeyPair = livekitConfig ? await livekitKeys(livekitConfig) : null;
const livekitEnv = livekitConfig ? webEnvFor(livekitConfig, livekitKeyPair) : {};
// PocketBase reads the call server's rooms to record calls (pocketbase/call_records.go).
const pocketbase = new Child({
  name: "pocketbase",
  command: pocketbaseBinary(root),
  args: serveArgs({ root, address: PB_HTTP, dataDir: PB_DATA }),
  extraEnv: livekitConfig ? pocketbaseEnvFor(livekitConfig, livekitKeyPair) : {},
});
const livekit = livekitConfig
  ? new Child({
      name: "livekit",
      command: livekitConfig.binary,
      args: ["--config", await writeLivekitConfig(livekitConfig, livekitKeyPair)],
    })
  : null;
const web = new Child({
  name: "web",
  command: process.execPath,
  args: ["server.mjs"],
  extraEnv: { NODE_ENV: "production", PB_URL: `http://${PB_HTTP}`, HOST, PORT, ...livekitEnv },
});
let litestream = null;

let mirrorTimer = null;
let mirrorFailed = false;
async function mirrorLoop() {
  try {
    await mirrorOnce(PB_DATA, replication.filesReplica);
    if (mirrorFailed) log("the file mirror works again");
    mirrorFailed = false;
  } catch (error) {
    if (!mirrorFailed) log(`the file mirror failed (retrying every second): ${error.message}`);
    mirrorFailed = true;
  }
  if (!stopping) mirrorTimer = setTimeout(mirrorLoop, MIRROR_INTERVAL_MS);
}

// Replication's health, every few seconds: logged when it changes, and written for the admin console.
const HEALTH_INTERVAL_MS = 2_000;
let healthTimer = null;
let healthChecking = false;
let lastHealth = "";
const replicationWatch = newReplicationWatch();
async function healthLoop() {
  clearTimeout(healthTimer);
  if (healthChecking) return; // the check under way sets the next one
  healthChecking = true;
  try {
    const status = await replicationStatus(replication, { running: Boolean(litestream?.process), watch: replicationWatch });
    if (status.state !== lastHealth) log(status.state === "ok" && lastHealth ? "replication is up to date again" : status.message);
    lastHealth = status.state;
    await writeReplicationStatus(PB_DATA, status);
  } catch (error) {
    log(`replication's health could not be checked: ${error.message}`);
  }
  healthChecking = false;
  if (!stopping) healthTimer = setTimeout(healthLoop, HEALTH_INTERVAL_MS);
}

async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping`);
  clearTimeout(mirrorTimer);
  clearTimeout(healthTimer);
  await web.stop();
  await pocketbase.stop();
  // Litestream syncs what is left when it stops; the mirror takes one last pass.
  if (litestream) await litestream.stop();
  if (replication) await mirrorOnce(PB_DATA, replication.filesReplica).catch(() => undefined);
  if (apertium) await apertium.stop();
  if (livekit) await livekit.stop();
  process.exit(0);
}
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));
// (a closed terminal: the children, in their own groups, are not told)
process.on("SIGHUP", () => shutdown("SIGHUP"));
// However this process ends, no child outlives it.
process.on("exit", () => {
  for (const c of children) c.process?.kill("SIGKILL");
});

apertium?.start();
livekit?.start();
pocketbase.start();
if (!(await waitForHealth(`http://${PB_HTTP}/api/health`, 60_000))) log("PocketBase is not healthy after 60 s; starting the rest anyway");
if (replication) {
  await mkdir(replication.filesReplica, { recursive: true, mode: 0o700 });
  const config = await writeLitestreamConfig(replication);
  litestream = new Child({
    name: "litestream",
    command: replication.litestream,
    args: ["replicate", "-config", config],
    // a Litestream that died is told at once, not at the next check
    onExit: () => void healthLoop(),
  });
  litestream.start();
  log(
    `replicating ${replication.database} to ${replication.databaseReplica} (sync every ${replication.syncInterval}) and files to ${replication.filesReplica}`,
  );
  mirrorLoop();
  healthLoop();
} else {
  log("replication is off (REPLICATION=off)");
  await writeReplicationStatus(PB_DATA, {
    state: "off",
    message: "Replication is off (REPLICATION=off).",
    checkedAt: new Date().toISOString(),
  });
}
if (!stopping) web.start();
