// Test toolkit: the production web server (server.mjs on the built app) in front of a test
// PocketBase, and a simulated browser for it (cookie jar, CSRF token, JSON API) from the benchmark.

import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { WebClient } from "../../bench/lib/web-client.mjs";
import { startWeb, type WebServer } from "../e2e/stack";
import { repoRoot, type TestUser } from "./pocketbase";

export { WebClient, type WebServer };

let build: Promise<void> | undefined;

/** Builds what the web server needs once per test process (the script skips what is up to date). */
function ensureBuilt(): Promise<void> {
  build ??= promisify(execFile)("bash", [path.join(repoRoot, "scripts", "ensure-deps.sh")], {
    cwd: repoRoot,
    maxBuffer: 10 * 1024 * 1024,
  }).then(() => undefined);
  return build;
}

/** The web server in front of the PocketBase at pbUrl; env adds to its environment (e.g. TRUST_PROXY). */
export async function startWebServer(pbUrl: string, options: { port?: number; env?: Record<string, string> } = {}): Promise<WebServer> {
  await ensureBuilt();
  return startWeb(pbUrl, options);
}

/** A browser session on the web server, signed in as a user made by signUpUser (its password is the login secret). */
export async function signedInClient(webUrl: string, user: TestUser): Promise<WebClient> {
  const browser = new WebClient(webUrl);
  await browser.loadPage();
  await browser.api("/api/auth/signin", { email: user.email, loginSecret: user.password });
  return browser;
}
