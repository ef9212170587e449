// Test toolkit: a real Apertium APy on a free loopback port, installed by
// scripts/install-apertium.sh and started by scripts/start-apertium.sh. Start it in beforeAll and
// stop it in afterAll, and give PocketBase its address as APERTIUM_URL.

import { execFile, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./pocketbase";
import { freePort } from "../ports";
export { freePort };

const execFileAsync = promisify(execFile);

const INSTALL_TIMEOUT_MS = 10 * 60_000;
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;
const MAX_LOG_CHARS = 200_000;

export interface RunningApertium {
  url: string;
  /** The installed pairs as "src-trg", e.g. "eng-spa". */
  pairs: string[];
  logs(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Installs APy and the language pairs when missing (the script does nothing when all are there). */
export async function installApertium(): Promise<void> {
  await execFileAsync("bash", [path.join(repoRoot, "scripts", "install-apertium.sh")], {
    cwd: repoRoot,
    timeout: INSTALL_TIMEOUT_MS,
    maxBuffer: 10 * 1024 * 1024,
  });
}

async function listPairs(url: string): Promise<string[] | undefined> {
  try {
    const res = await fetch(`${url}/listPairs`, { signal: AbortSignal.timeout(2_000) });
    if (res.status !== 200) {
      return undefined;
    }
    const body = (await res.json()) as { responseData?: { sourceLanguage: string; targetLanguage: string }[] };
    return (body.responseData ?? []).map((pair) => `${pair.sourceLanguage}-${pair.targetLanguage}`);
  } catch {
    return undefined;
  }
}

export async function startApertium(): Promise<RunningApertium> {
  await installApertium();

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-MAX_LOG_CHARS);
  };

  // its own process group, so that stopping it also stops APy's translation pipelines
  const child: ChildProcess = spawn("bash", [path.join(repoRoot, "scripts", "start-apertium.sh"), String(port)], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });

  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) {
        process.kill(-child.pid, signal);
      }
    } catch {
      // already gone
    }
  };

  const stop = async () => {
    if (exited) {
      return;
    }
    const done = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    signalGroup("SIGTERM");
    const timer = setTimeout(() => signalGroup("SIGKILL"), STOP_TIMEOUT_MS);
    await done;
    clearTimeout(timer);
    signalGroup("SIGKILL"); // pipelines that outlived APy
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) {
      throw new Error(`Apertium APy exited during start-up:\n${output}`);
    }
    const pairs = await listPairs(url);
    if (pairs) {
      return { url, pairs, logs: () => output, stop };
    }
    await sleep(200);
  }
  await stop();
  throw new Error(`Apertium APy did not answer /listPairs within ${READY_TIMEOUT_MS} ms:\n${output}`);
}
