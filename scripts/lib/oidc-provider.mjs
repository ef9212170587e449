// The OpenID Connect provider of the tests and the bench (tools/oidc-provider/, a real provider on
// loopback): start it, add and disable people, and sign in at its login form the way a browser does
// (for callers without a browser). tests/oidc-provider.ts gives it types for the tests.
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { stopProcess } from "./pocketbase.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const OIDC_CLIENT_ID = "chatcrypt";
export const OIDC_CLIENT_SECRET = "chatcrypt-test-secret";

/** @type {Promise<unknown> | undefined} */
let build;

/**
 * Starts the provider on loopback (a free port unless one is given), accepting the given redirect URIs.
 * @param {string[]} redirectUris
 * @param {number} [port]
 */
export async function startProvider(redirectUris, port = 0) {
  build ??= promisify(execFile)("bash", [path.join(root, "scripts", "build-oidc-provider.sh")], { cwd: root });
  await build;
  const args = ["-addr", `127.0.0.1:${port}`, "-client-id", OIDC_CLIENT_ID, "-client-secret", OIDC_CLIENT_SECRET];
  for (const uri of redirectUris) args.push("-redirect", uri);
  const proc = spawn(path.join(root, "bin", "oidc-provider"), args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  /** @type {string} */
  const issuer = await new Promise((resolve, reject) => {
    proc.stdout.on("data", (chunk) => {
      output += chunk.toString();
      const m = /listening: (\S+)/.exec(output);
      if (m) resolve(m[1]);
    });
    proc.stderr.on("data", (chunk) => (output += chunk.toString()));
    proc.once("exit", (code) => reject(new Error(`the identity provider exited (${code}): ${output}`)));
  });
  /** @param {string} route @param {unknown} body */
  const admin = async (route, body) => {
    const res = await fetch(new URL(route, issuer), { method: "POST", body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  };
  return {
    /** The issuer, e.g. http://127.0.0.1:5556/ */
    issuer,
    /** PocketBase's environment settings for this provider. */
    env: {
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET,
      OIDC_NAME: "Acme ID",
      OIDC_USERNAME_CLAIM: "preferred_username",
      OIDC_ALLOWED_DOMAINS: "example.com",
    },
    /** @param {{ username: string, password: string, email: string, name?: string }} user */
    addUser: (user) => admin("/test-admin/users", user),
    /** @param {string} username */
    disableUser: (username) => admin("/test-admin/users/disable", { username }),
    logs: () => output,
    stop: () => stopProcess(proc),
  };
}

/**
 * Follows the authorization URL as a browser would, fills in the login form, and answers where the
 * provider sends the browser back (the redirect URI with code and state), or the login page's error.
 * @param {string} authUrl
 * @param {string} username
 * @param {string} password
 * @returns {Promise<{ callback?: URL, error?: string }>}
 */
export async function signInAtProvider(authUrl, username, password) {
  let url = new URL(authUrl);
  // the authorization endpoint sends the browser to the login form, keeping the request's id
  for (let hops = 0; hops < 5 && !url.pathname.startsWith("/login/"); hops++) {
    const res = await fetch(url, { redirect: "manual" });
    const location = res.headers.get("location");
    if (!location) throw new Error(`no redirect from ${url.pathname}: ${res.status} ${await res.text()}`);
    url = new URL(location, url);
  }
  const id = url.searchParams.get("authRequestID") ?? "";
  let res = await fetch(new URL("/login/username", url), {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams({ id, username, password }),
  });
  for (let hops = 0; hops < 5; hops++) {
    const location = res.headers.get("location");
    if (!location) {
      const page = await res.text();
      return { error: /color:red[^>]*>([^<]*)</.exec(page)?.[1]?.trim() || `status ${res.status}` };
    }
    const next = new URL(location, url);
    if (next.searchParams.has("code")) return { callback: next };
    url = next;
    res = await fetch(next, { redirect: "manual" });
  }
  throw new Error("the provider did not send the browser back");
}
