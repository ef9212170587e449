// A real PocketBase for the integration tests (our build, our migrations and hooks) on a free
// loopback port and a temporary data dir, and SDK clients for it. Test files import it through
// ./pocketbase, the toolkit's face.

import { execFile, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import PocketBase from "pocketbase";
import { freePort } from "../ports";
import { migratedDataDir } from "../../scripts/lib/pocketbase-template.mjs";
import { spawnPocketBase, stopProcess, superuserToken, updateSettings, waitHealthy } from "../../scripts/lib/pocketbase.mjs";

const execFileAsync = promisify(execFile);

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
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

export async function startPocketBase(options: StartOptions = {}): Promise<RunningPocketBase> {
  await ensureBuilt();
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), "chatcrypt-pb-")));
  // the migrations already applied (a copy of a template made once per build), and its superuser
  const superuser = await migratedDataDir(repoRoot, dataDir);
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
    const proc = spawnPocketBase({ root: repoRoot, address: `127.0.0.1:${port}`, dataDir, env: { ...process.env, ...options.env } });
    child = proc;
    proc.stdout?.on("data", append);
    proc.stderr?.on("data", append);
    try {
      await waitHealthy(url, proc, () => output);
    } catch (error) {
      await kill();
      throw error;
    }
  };

  const kill = async () => {
    const proc = child;
    child = undefined;
    await stopProcess(proc);
  };

  try {
    await launch();
    if (!options.rateLimits) {
      await updateSettings(url, await superuserToken(url, superuser), { rateLimits: { excludedIPs: ["127.0.0.1"] } });
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
