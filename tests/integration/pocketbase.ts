// Test toolkit for the integration tests: a real PocketBase (our build, our migrations and hooks)
// on a free loopback port and a temporary data dir, plus helpers to sign users up and call the
// /api/chat/ routes. One PocketBase per test file: start it in beforeAll, stop it in afterAll.

import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
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

// ---------------------------------------------------------------------------------------------
// Well-formed fake values. The server never looks inside keys or ciphertext, so random base64
// of realistic length is enough.

export const randomUserId = () => {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(randomBytes(15), (byte) => alphabet[byte % alphabet.length]).join("");
};
/** A login secret as the browser derives it: 32 bytes in unpadded base64url (43 characters). */
export const randomSecret = () => randomBytes(32).toString("base64url");
/** A channel join verifier: 32 bytes in unpadded base64url (43 characters). */
export const randomVerifier = () => randomBytes(32).toString("base64url");
export const fakePublicKey = () => randomBytes(120).toString("base64");
export const fakeWrappedKey = () => randomBytes(1200).toString("base64");
export const fakeCiphertext = (bytes = 64) => randomBytes(bytes).toString("base64");

export interface SignupBody {
  id: string;
  email: string;
  password: string;
  username: string;
  ecdh_public_key: string;
  rsa_public_key: string;
  encrypted_ecdh_private_key: string;
  encrypted_rsa_private_key: string;
  kdf_iterations: number;
}

export function signupBody(overrides: Partial<SignupBody> = {}): SignupBody {
  const id = randomUserId();
  return {
    id,
    email: `user-${id}@example.test`,
    password: randomSecret(),
    username: `user_${id.slice(0, 10)}`,
    ecdh_public_key: fakePublicKey(),
    rsa_public_key: fakePublicKey(),
    encrypted_ecdh_private_key: fakeWrappedKey(),
    encrypted_rsa_private_key: fakeWrappedKey(),
    kdf_iterations: 600_000,
    ...overrides,
  };
}

export interface TestUser {
  pb: PocketBase;
  id: string;
  email: string;
  username: string;
  password: string;
  token: string;
  record: Record<string, unknown>;
}

/** Signs a new user up through /api/chat/signup and returns a client authenticated as them. */
export async function signUpUser(url: string, overrides: Partial<SignupBody> = {}): Promise<TestUser> {
  const body = signupBody(overrides);
  const res = await postJson(url, "/api/chat/signup", body);
  if (res.status !== 200) {
    throw new Error(`sign-up failed with ${res.status}: ${res.text}`);
  }
  const { token, record } = res.json as { token: string; record: Record<string, unknown> };
  const pb = client(url);
  pb.authStore.save(token, record as never);
  return { pb, id: body.id, email: body.email, username: body.username, password: body.password, token, record };
}

export interface RawResponse {
  status: number;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  contentType: string;
}

/** An answer's body as text, and parsed when it is JSON. */
export function readAnswer(chunks: Buffer[]): { text: string; json: unknown } {
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return { text, json: JSON.parse(text) };
  } catch {
    return { text, json: undefined };
  }
}

/**
 * POSTs any body (string or bytes) and returns status and body. Each call uses its own
 * connection, and a body is sent only after the server asks for it ("Expect: 100-continue"):
 * PocketBase refuses an oversize body (413) before reading it, and a client still writing into
 * the closed connection could lose that answer to a connection reset.
 */
export function post(
  url: string,
  route: string,
  body: string | Uint8Array | undefined,
  init: { token?: string; contentType?: string | null } = {},
): Promise<RawResponse> {
  const headers: Record<string, string | number> = {};
  if (init.contentType !== null) {
    headers["Content-Type"] = init.contentType ?? "application/json";
  }
  if (init.token) {
    headers.Authorization = init.token;
  }
  const payload = body === undefined ? undefined : typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);
  headers["Content-Length"] = payload?.length ?? 0;
  if (payload?.length) {
    headers.Expect = "100-continue";
  }

  return new Promise((resolve, reject) => {
    const req = http.request(new URL(route, url), { method: "POST", headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const { text, json } = readAnswer(chunks);
        resolve({ status: res.statusCode ?? 0, text, json, contentType: String(res.headers["content-type"] ?? "") });
        req.destroy();
      });
    });
    req.on("error", reject);
    if (payload?.length) {
      req.on("continue", () => req.end(payload));
    } else {
      req.end();
    }
  });
}

export function postJson(url: string, route: string, value: unknown, token?: string): Promise<RawResponse> {
  return post(url, route, JSON.stringify(value), { token });
}

export interface TestChannel {
  id: string;
  name: string;
  verifier: string;
}

/** Creates a channel through /api/chat/channels as the given user (`sealed`: an MLS channel, whose group the creator then posts). */
export async function createChannel(
  user: TestUser,
  name = `channel ${randomBytes(3).toString("hex")}`,
  options: { sealed?: boolean } = {},
): Promise<TestChannel> {
  const channel = { id: randomUUID(), name, verifier: randomVerifier() };
  const res = await postJson(
    user.pb.baseURL,
    "/api/chat/channels",
    { ...channel, ecdh_public_key: fakePublicKey(), kdf_iterations: 600_000, ...(options.sealed ? { sealed: true } : {}) },
    user.token,
  );
  if (res.status !== 200) {
    throw new Error(`channel creation failed with ${res.status}: ${res.text}`);
  }
  return channel;
}

/** Joins a channel through /api/chat/channels/join as the given user. */
export async function joinChannel(user: TestUser, channel: TestChannel): Promise<RawResponse> {
  return postJson(
    user.pb.baseURL,
    "/api/chat/channels/join",
    { channel_id: channel.id, verifier: channel.verifier, ecdh_public_key: fakePublicKey() },
    user.token,
  );
}

/** Posts a message as the user, through the messages collection API. */
export async function postMessage(user: TestUser, channelId: string, text = fakeCiphertext()) {
  return user.pb.collection("messages").create({
    channel: channelId,
    sender: user.id,
    encrypted_content: text,
    sender_public_key: fakePublicKey(),
  });
}

/** The HTTP status of a rejected SDK call, or 200 for any success (including 204). */
export async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (typeof status !== "number") {
      throw error;
    }
    return status;
  }
}
