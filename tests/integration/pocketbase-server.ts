// A real PocketBase for the integration tests (our build, our migrations and hooks) on a free
// loopback port and a temporary data dir, and SDK clients for it. Test files import it through
// ./pocketbase, the toolkit's face.

import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import PocketBase from "pocketbase";
import { freePort } from "../ports";

const execFileAsync = promisify(execFile);

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const binary = path.join(repoRoot, "bin", "pocketbase");

const HEALTH_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
const MAX_LOG_CHARS = 2_000_000;

export interface RunningPocketBase {
  url: string;
  dataDir: string;
  superuser: { email: string; password: string };
  stop(): Promise<void>;
  restart(): Promise<void>;
  logs(): string;
}

export interface StartOptions {
  /**
   * Keep the built-in rate limiter active for requests from the tests. By default the loopback
   * address is excluded so that a test file can send hundreds of requests.
   */
  rateLimits?: boolean;
  /** Extra environment variables for the PocketBase process (added to this process's environment). */
  env?: Record<string, string>;
  /** An existing, empty directory for PocketBase's data (default: a new temporary directory). */
  dataDir?: string;
}

let build: Promise<void> | undefined;

/** Builds bin/pocketbase once per test process (the script itself skips a fresh binary). */
function ensureBuilt(): Promise<void> {
  build ??= execFileAsync("bash", [path.join(repoRoot, "scripts", "build-pocketbase.sh")], {
    cwd: repoRoot,
    maxBuffer: 10 * 1024 * 1024,
  }).then(() => undefined);
  return build;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startPocketBase(options: StartOptions = {}): Promise<RunningPocketBase> {
  await ensureBuilt();

  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), "chatcrypt-pb-")));
  const superuser = {
    email: `admin-${randomBytes(4).toString("hex")}@example.test`,
    // hex: a password starting with "-" would be read as a command-line flag by `superuser upsert`
    password: randomBytes(18).toString("hex"),
  };
  await execFileAsync(binary, ["superuser", "upsert", "--dir", dataDir, "--", superuser.email, superuser.password], {
    cwd: repoRoot,
  });

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  let child: ChildProcess | undefined;

  const append = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    if (output.length > MAX_LOG_CHARS) {
      output = output.slice(-MAX_LOG_CHARS);
    }
  };

  const launch = async () => {
    const proc = spawn(
      binary,
      [
        "serve",
        "--http",
        `127.0.0.1:${port}`,
        "--dir",
        dataDir,
        "--migrationsDir",
        "pb_migrations",
        "--hooksDir",
        "pb_hooks",
        "--hooksWatch=false",
        "--automigrate=false",
      ],
      { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...options.env } },
    );
    child = proc;
    proc.stdout?.on("data", append);
    proc.stderr?.on("data", append);

    let exited = false;
    proc.once("exit", () => {
      exited = true;
    });

    const deadline = Date.now() + HEALTH_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (exited) {
        throw new Error(`PocketBase exited during start-up:\n${output}`);
      }
      try {
        const res = await fetch(`${url}/api/health`);
        if (res.status === 200) {
          return;
        }
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    await kill();
    throw new Error(`PocketBase did not become healthy within ${HEALTH_TIMEOUT_MS} ms:\n${output}`);
  };

  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) {
      return;
    }
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    proc.kill("SIGTERM");
    const timer = setTimeout(() => proc.kill("SIGKILL"), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };

  try {
    await launch();
    if (!options.rateLimits) {
      const admin = await superuserClientWithRetry(url, superuser);
      await admin.settings.update({ rateLimits: { excludedIPs: ["127.0.0.1"] } });
    }
  } catch (error) {
    await kill();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  return {
    url,
    dataDir,
    superuser,
    logs: () => output,
    restart: async () => {
      await kill();
      await launch();
    },
    stop: async () => {
      await kill();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Superuser sign-in right after start-up, tried a few times while PocketBase settles. */
async function superuserClientWithRetry(url: string, superuser: { email: string; password: string }): Promise<PocketBase> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await superuserClient(url, superuser);
    } catch (error) {
      if (attempt >= 5) throw error;
      await sleep(200 * attempt);
    }
  }
}

/** A PocketBase SDK client for tests: no auto-cancellation of parallel requests. */
export function client(url: string): PocketBase {
  const pb = new PocketBase(url);
  pb.autoCancellation(false);
  return pb;
}

export async function superuserClient(url: string, superuser: { email: string; password: string }): Promise<PocketBase> {
  const pb = client(url);
  await pb.collection("_superusers").authWithPassword(superuser.email, superuser.password);
  return pb;
}
