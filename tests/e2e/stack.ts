import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { proxySecret } from "../../scripts/lib/pocketbase.mjs";
import { freePort } from "../ports";
export { freePort };

export async function waitFor(url: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`Timed out waiting for ${url}`);
}

export interface WebServer {
  url: string;
  logDir: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** The web server's process id while it runs. */
  pid(): number | undefined;
}

/** The production web server (server.mjs on the built app) in front of the given PocketBase. */
export async function startWeb(
  pbUrl: string,
  options: { port?: number; sessionSecret?: string; env?: Record<string, string> } = {},
): Promise<WebServer> {
  const port = options.port ?? (await freePort());
  const logDir = mkdtempSync(join(tmpdir(), "chatcrypt-web-logs-"));
  const log = createWriteStream(join(logDir, "web.log"), { flags: "a" });
  const sessionSecret = options.sessionSecret ?? randomBytes(32).toString("base64url");
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawn(process.execPath, ["server.mjs"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PB_URL: pbUrl,
        HOST: "127.0.0.1",
        PORT: String(port),
        SESSION_SECRET: sessionSecret,
        PB_PROXY_SECRET: proxySecret(),
        // One web process (pid() is the one serving) unless a test asks for more.
        WEB_PROCESSES: "1",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    await waitFor(url);
  };

  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGTERM");
    const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };

  await start();
  return { url, logDir, start, stop, pid: () => child?.pid };
}
