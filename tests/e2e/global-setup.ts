import { spawn, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPocketBase } from "../integration/pocketbase";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function waitFor(url: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Timed out waiting for ${url}`);
}

export default async function globalSetup() {
  execFileSync("bash", ["scripts/ensure-deps.sh"], { stdio: "inherit" });
  const pb = await startPocketBase();
  const port = await freePort();
  const logDir = mkdtempSync(join(tmpdir(), "chatcrypt-e2e-logs-"));
  const webLog = createWriteStream(join(logDir, "web.log"));
  const web = spawn(process.execPath, ["node_modules/@remix-run/serve/dist/cli.js", "build/server/index.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PB_URL: pb.url,
      HOST: "127.0.0.1",
      PORT: String(port),
      SESSION_SECRET: randomBytes(32).toString("base64url"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  web.stdout.pipe(webLog);
  web.stderr.pipe(webLog);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(baseUrl);

  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_PB_URL = pb.url;
  process.env.E2E_PB_DATA = pb.dataDir;
  process.env.E2E_LOG_DIR = logDir;
  process.env.E2E_SUPERUSER = JSON.stringify(pb.superuser);

  return async () => {
    web.kill("SIGTERM");
    await pb.stop();
  };
}
