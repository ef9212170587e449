// Starting our PocketBase build: one way for the integration and browser tests
// (tests/integration/pocketbase-server.ts), the benchmarks (bench/lib/stack.mjs) and the supervisor
// of `npm start` (scripts/supervise.mjs, which only takes `serveArgs`).
import { execFile, spawn } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a start-up may take before it counts as failed, and how long a stop may take before SIGKILL. */
export const HEALTH_TIMEOUT_MS = 30_000;
export const STOP_TIMEOUT_MS = 5_000;

/** The build's path in a checkout. */
export const pocketbaseBinary = (root) => path.join(root, "bin", "pocketbase");

/**
 * `pocketbase serve` on an address ("127.0.0.1:8090") and a data directory, with the checkout's
 * migrations and hooks, neither watched nor generated.
 * @param {{ root: string, address: string, dataDir: string }} where
 */
export function serveArgs({ root, address, dataDir }) {
  return [
    "serve",
    "--http",
    address,
    "--dir",
    dataDir,
    "--migrationsDir",
    path.join(root, "pb_migrations"),
    "--hooksDir",
    path.join(root, "pb_hooks"),
    "--hooksWatch=false",
    "--automigrate=false",
  ];
}

/**
 * A superuser with a random email and password, written into the data directory before start-up.
 * @param {string} root
 * @param {string} dataDir
 * @param {string} prefix the email's first word ("admin", "bench")
 * @returns {Promise<{ email: string, password: string }>}
 */
export async function createSuperuser(root, dataDir, prefix) {
  const superuser = {
    email: `${prefix}-${randomBytes(4).toString("hex")}@example.test`,
    // hex, and after "--": a password starting with "-" would be read as a command-line flag
    password: randomBytes(18).toString("hex"),
  };
  await execFileAsync(pocketbaseBinary(root), ["superuser", "upsert", "--dir", dataDir, "--", superuser.email, superuser.password], {
    cwd: root,
  });
  return superuser;
}

/**
 * The secret PocketBase and the web server share (PB_PROXY_SECRET): only a request that proves it may
 * say whose address and device it is made for (pocketbase/proxy_secret.go). One per process when the
 * environment has none, put into this process's environment so that the PocketBase and the web
 * servers it starts share it.
 * @returns {string}
 */
export function proxySecret() {
  process.env.PB_PROXY_SECRET ||= randomBytes(24).toString("hex");
  return process.env.PB_PROXY_SECRET;
}

/**
 * The header that proves the shared secret (what the web server sends with every request), for a
 * test or a bench that poses as the web server.
 * @param {string} [secret]
 * @returns {{ "X-ChatCrypt-Proxy": string }}
 */
export function proxyHeaders(secret = proxySecret()) {
  return { "X-ChatCrypt-Proxy": createHmac("sha256", secret).update("ChatCrypt web server").digest("hex") };
}

/**
 * Spawns `pocketbase serve` (see serveArgs), its output piped.
 * @param {{ root: string, address: string, dataDir: string, env?: Record<string, string | undefined> }} options
 * @returns {import("node:child_process").ChildProcess}
 */
export function spawnPocketBase({ root, address, dataDir, env = process.env }) {
  const withSecret = { PB_PROXY_SECRET: proxySecret(), ...env };
  return spawn(pocketbaseBinary(root), serveArgs({ root, address, dataDir }), {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: withSecret,
  });
}

/**
 * Waits until `${url}/api/health` answers 200; throws (with `output()`, what the process wrote) when the
 * process exits first or the time runs out.
 * @param {string} url
 * @param {import("node:child_process").ChildProcess} proc
 * @param {() => string} [output]
 */
export async function waitHealthy(url, proc, output = () => "") {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`PocketBase exited during start-up:\n${output()}`);
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`PocketBase did not become healthy within ${HEALTH_TIMEOUT_MS} ms:\n${output()}`);
}

/**
 * Stops a child process: SIGTERM, then SIGKILL after STOP_TIMEOUT_MS; resolves when it has exited.
 * @param {import("node:child_process").ChildProcess | null | undefined} proc
 */
export function stopProcess(proc) {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), STOP_TIMEOUT_MS);
  return exited.finally(() => clearTimeout(timer));
}

/**
 * The superuser's token right after start-up, tried a few times while PocketBase settles.
 * @param {string} url
 * @param {{ email: string, password: string }} superuser
 * @returns {Promise<string>}
 */
export async function superuserToken(url, superuser) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${url}/api/collections/_superusers/auth-with-password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ identity: superuser.email, password: superuser.password }),
    }).catch((error) => ({ status: 0, text: async () => String(error) }));
    if (res.status === 200) return (await res.json()).token;
    if (attempt >= 5) throw new Error(`superuser sign-in answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    await sleep(200 * attempt);
  }
}

/**
 * Changes PocketBase's settings as the superuser (e.g. the rate limiter's exempt addresses).
 * @param {string} url
 * @param {string} token
 * @param {Record<string, unknown>} settings
 */
export async function updateSettings(url, token, settings) {
  const res = await fetch(`${url}/api/settings`, {
    method: "PATCH",
    headers: { "content-type": "application/json", Authorization: token },
    body: JSON.stringify(settings),
  });
  if (res.status !== 200) throw new Error(`settings update answered ${res.status}: ${await res.text()}`);
}
