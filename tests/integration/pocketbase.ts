// Test toolkit for the integration tests: a real PocketBase (our build, our migrations and hooks)
// on a free loopback port and a temporary data dir (pocketbase-server.ts), plus helpers to sign
// users up and call the /api/chat/ routes. One PocketBase per test file: start it in beforeAll,
// stop it in afterAll.

import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type PocketBase from "pocketbase";
import { client } from "./pocketbase-server";

export * from "./pocketbase-server";

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
/** A wrapped private key's shape ("v1." + base64url(iv) + "." + base64url(ciphertext)), with random bytes. */
export const fakeWrappedKey = () => `v1.${randomBytes(12).toString("base64url")}.${randomBytes(300).toString("base64url")}`;
export const fakeCiphertext = (bytes = 64) => randomBytes(bytes).toString("base64");

/** An MLS 1.0 opaque<V>: its length as a variable-length integer (RFC 9420 §2.1.2), then the bytes. */
const opaque = (bytes: Uint8Array) => {
  const n = bytes.length;
  const length = n < 64 ? [n] : n < 16384 ? [0x40 | (n >> 8), n & 0xff] : [0x80 | (n >>> 24), (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
  return Buffer.concat([Buffer.from(length), bytes]);
};

/**
 * What a sealed conversation's member posts, as far as the server can read it: an MLS private message
 * carrying an application message (content type 1) of the channel's group at `epoch`, base64url, with
 * random sender data and ciphertext that no member could open.
 */
export function fakeSealed(channelId: string, epoch: number, bytes = 64) {
  const header = Buffer.alloc(4);
  header.writeUInt16BE(1, 0); // mls10
  header.writeUInt16BE(2, 2); // mls_private_message
  const at = Buffer.alloc(9);
  at.writeBigUInt64BE(BigInt(epoch), 0);
  at.writeUInt8(1, 8); // application
  const parts = [header, opaque(Buffer.from(channelId)), at, opaque(Buffer.alloc(0)), opaque(randomBytes(20)), opaque(randomBytes(bytes))];
  return Buffer.concat(parts).toString("base64url");
}

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

/**
 * Makes these people colleagues: a classic channel of the first that the others join. People who share
 * a channel put each other into direct conversations at once (docs/decisions/0052-direct-messages-with-consent.md).
 */
export async function colleagues(owner: TestUser, ...others: TestUser[]): Promise<TestChannel> {
  const channel = await createChannel(owner);
  for (const other of others) {
    const joined = await joinChannel(other, channel);
    if (joined.status !== 200) throw new Error(`join failed with ${joined.status}: ${joined.text}`);
  }
  return channel;
}
