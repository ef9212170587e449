// Test toolkit: the whole product as `npm start` runs it (scripts/start.sh → scripts/supervise.mjs),
// on free loopback ports and temporary data and replica directories.

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../ports";
import { repoRoot } from "./pocketbase";

export interface RunningProduct {
  url: string;
  pbUrl: string;
  apertiumUrl: string;
  dataDir: string;
  replicaDir: string;
  /** The current process id of a supervised part, as the supervisor last logged it. */
  pidOf(name: string): number | undefined;
  /** The LiveKit server's address (calls), as the product started it. */
  livekitUrl: string;
  logs(): string;
  /** Every process of the product at once, as a lost machine would (SIGKILL to the process group). */
  killAll(): Promise<void>;
  /** Ctrl+C: the supervisor stops everything in order; resolves with the time it took. */
  stop(): Promise<number>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check().catch(() => false)) return Date.now() - started;
    await sleep(100);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export async function startProduct(
  options: { dataDir?: string; replicaDir?: string; apertium?: boolean; env?: Record<string, string> } = {},
): Promise<RunningProduct> {
  const [port, pbPort, apertiumPort] = [await freePort(), await freePort(), await freePort()];
  const [livekitPort, livekitTcpPort, livekitUdpPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "chatcrypt-product-"));
  const replicaDir = options.replicaDir ?? mkdtempSync(path.join(os.tmpdir(), "chatcrypt-replica-"));
  // The product's own settings only: no secret, mode or translation address from the test's environment.
  const { APERTIUM_URL: _url, SESSION_SECRET: _secret, NODE_ENV: _mode, ...inherited } = process.env;
  const env: Record<string, string | undefined> = {
    ...inherited,
    HOST: "127.0.0.1",
    PORT: String(port),
    PB_HTTP: `127.0.0.1:${pbPort}`,
    PB_DATA: dataDir,
    REPLICA_DIR: replicaDir,
    APERTIUM_PORT: String(apertiumPort),
    TRANSLATE_PROVIDER: options.apertium ? "apertium" : "none",
    // The call server on ports of its own (one UDP port), so that products never meet.
    LIVEKIT_PORT: String(livekitPort),
    LIVEKIT_RTC_TCP_PORT: String(livekitTcpPort),
    LIVEKIT_UDP_PORTS: String(livekitUdpPort),
    ...options.env,
  };
  let output = "";
  const child: ChildProcess = spawn("bash", ["scripts/start.sh"], {
    cwd: repoRoot,
    env: env as NodeJS.ProcessEnv,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const append = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    if (output.length > 4_000_000) output = output.slice(-2_000_000);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let running = true;
  void exited.then(() => (running = false));

  /** The last logged process id of every part the supervisor started. */
  const childPids = () => {
    const last = new Map<string, number>();
    for (const [, name, pid] of output.matchAll(/started (\w+) \(pid (\d+)\)/g)) last.set(name, Number(pid));
    return [...last.values()];
  };
  const url = `http://127.0.0.1:${port}`;
  const product: RunningProduct = {
    url,
    pbUrl: `http://127.0.0.1:${pbPort}`,
    apertiumUrl: `http://127.0.0.1:${apertiumPort}`,
    livekitUrl: `http://127.0.0.1:${livekitPort}`,
    dataDir,
    replicaDir,
    logs: () => output,
    pidOf(name) {
      const matches = [...output.matchAll(new RegExp(`started ${name} \\(pid (\\d+)\\)`, "g"))];
      const last = matches.at(-1);
      return last ? Number(last[1]) : undefined;
    },
    async killAll() {
      if (!running) return;
      killGroup(child.pid!);
      // each supervised part runs in a process group of its own
      for (const pid of childPids()) killGroup(pid);
      await exited;
    },
    async stop() {
      const started = Date.now();
      if (!running) return 0;
      // as a terminal's Ctrl+C: SIGINT to the foreground process group (start.sh and the supervisor)
      process.kill(-child.pid!, "SIGINT");
      const timer = setTimeout(() => running && killGroup(child.pid!), 30_000);
      await exited;
      clearTimeout(timer);
      // anything still around (nothing should be) goes too
      for (const pid of [child.pid!, ...childPids()]) killGroup(pid);
      return Date.now() - started;
    },
  };
  try {
    await waitUntil(
      async () => {
        if (!running) return true;
        const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
        return response.status === 200;
      },
      240_000,
      "the web app to answer",
    );
    if (!running) throw new Error("npm start exited");
  } catch (error) {
    await product.killAll();
    throw new Error(`${(error as Error).message}\n${output.slice(-5_000)}`);
  }
  return product;
}

/** SIGKILL to a process group, if it is still there. */
function killGroup(pid: number) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is gone
  }
}
