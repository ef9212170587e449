// Test toolkit: the real LiveKit server (bin/livekit-server, built by scripts/install-livekit.sh) on
// free loopback ports with its own temporary data directory, configured by the same code as
// `npm start` (scripts/lib/livekit.mjs); `webEnv` is what the web server needs to mint call tokens.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { livekitKeys, livekitSettings, pocketbaseEnvFor, webEnvFor, writeLivekitConfig } from "../../scripts/lib/livekit.mjs";
import { freePort } from "../ports";
import { waitFor } from "../e2e/stack";
import { repoRoot } from "./pocketbase";

export interface RunningLiveKit {
  url: string;
  apiUrl: string;
  apiKey: string;
  apiSecret: string;
  dataDir: string;
  /** The server's process id (for the bench's CPU figures). */
  pid: number;
  webEnv: Record<string, string>;
  /** What PocketBase needs to read the call server's rooms (call records). */
  pocketbaseEnv: Record<string, string>;
  logs(): string;
  stop(): Promise<void>;
}

let build: Promise<void> | undefined;
function ensureBuilt(): Promise<void> {
  build ??= promisify(execFile)("bash", [path.join(repoRoot, "scripts", "install-livekit.sh")], { cwd: repoRoot }).then(() => undefined);
  return build;
}

export async function startLiveKit(env: Record<string, string> = {}): Promise<RunningLiveKit> {
  await ensureBuilt();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "chatcrypt-livekit-"));
  const settings = livekitSettings(
    {
      LIVEKIT_PORT: String(await freePort()),
      LIVEKIT_RTC_TCP_PORT: String(await freePort()),
      // one UDP port (a mux) per server, so that servers of parallel test workers never meet
      LIVEKIT_UDP_PORTS: String(await freePort()),
      ...env,
    },
    { root: repoRoot, dataDir },
  )!;
  const keys = await livekitKeys(settings);
  const config = await writeLivekitConfig(settings, keys);
  let output = "";
  const child: ChildProcess = spawn(settings.binary, ["--config", config], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  try {
    await waitFor(settings.apiUrl, 30_000);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`LiveKit did not start: ${String(error)}\n${output}`);
  }
  return {
    url: settings.url,
    apiUrl: settings.apiUrl,
    apiKey: keys.apiKey,
    apiSecret: keys.apiSecret,
    dataDir,
    pid: child.pid ?? 0,
    webEnv: webEnvFor(settings, keys),
    pocketbaseEnv: pocketbaseEnvFor(settings, keys),
    logs: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
