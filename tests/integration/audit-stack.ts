// Test toolkit for the audit log (docs/decisions/0054-audit-log.md): a real PocketBase mailing through a
// real SMTP server on loopback, and the requests that make each security event happen, sent the way the
// web server sends them (the browser's address in X-Forwarded-For, its summary in X-ChatCrypt-Agent).

import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { expect } from "vitest";
import type { CaptureServer } from "./smtp";
import { fakeWrappedKey, randomSecret, type TestUser } from "./pocketbase";
import { proxyHeaders } from "../../scripts/lib/pocketbase.mjs";

export const ADDRESS = "203.0.113.7";
export const AGENT = "Firefox on Linux";

export interface AuditEntry {
  seq: number;
  at: string;
  actor: string;
  actor_name: string;
  action: string;
  target: string;
  target_name: string;
  ip: string;
  device: string;
  details: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

export interface AuditPage {
  items: AuditEntry[];
  totalItems: number;
  upto: number;
  newer: number;
  chain: { ok: boolean; count: number; seq?: number };
}

export interface Answer {
  status: number;
  text: string;
  json: unknown;
  headers: Headers;
}

/** One request to PocketBase as a browser behind the web server would make it. */
export async function send(
  base: string,
  route: string,
  init: { method?: string; body?: unknown; token?: string; raw?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...proxyHeaders(), "X-Forwarded-For": ADDRESS, "X-ChatCrypt-Agent": AGENT };
  if (init.token) headers.Authorization = init.token;
  if (init.body !== undefined || init.raw !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(base + route, {
    method: init.method ?? (init.body === undefined && init.raw === undefined ? "GET" : "POST"),
    headers,
    body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json, headers: response.headers };
}

/** A password sign-in; answers the new token. */
export async function signIn(base: string, email: string, password: string): Promise<string> {
  const answer = await send(base, "/api/collections/users/auth-with-password", { body: { identity: email, password } });
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { token: string }).token;
}

/** A private key wrapped the way app/crypto/keys.ts writes it (random bytes: the server never looks inside). */
export const wrapped = fakeWrappedKey;

/** The token of the last link mailed to an address (reset or email change). */
export async function mailedToken(smtp: CaptureServer, to: string, before: number): Promise<string> {
  await expect.poll(() => smtp.mailsTo(to).length, { timeout: 10_000 }).toBeGreaterThan(before);
  const link = /href="([^"]+)"/.exec(smtp.mailsTo(to).at(-1)!.html)?.[1] ?? "";
  return decodeURIComponent(link.split("#token=")[1] ?? "");
}

/** Changes the password (POST /api/chat/password); answers the new login secret and token. */
export async function changePassword(base: string, user: TestUser, token: string) {
  const password = randomSecret();
  const answer = await send(base, "/api/chat/password", {
    token,
    body: {
      current: user.password,
      password,
      encrypted_ecdh_private_key: wrapped(),
      encrypted_rsa_private_key: wrapped(),
      kdf_iterations: 600_000,
    },
  });
  expect(answer.status, answer.text).toBe(200);
  return { password, token: (answer.json as { token: string }).token };
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** A passkey added straight to PocketBase (the web app checks the attestation before; none here), and its sign-in. */
export async function addPasskey(base: string, userId: string, token: string) {
  const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const credentialId = b64url(randomBytes(32));
  const challenge = await send(base, "/api/chat/passkeys/challenge", { token, body: { purpose: "register" } });
  expect(challenge.status, challenge.text).toBe(200);
  const added = await send(base, "/api/chat/passkeys", {
    token,
    body: {
      challenge: (challenge.json as { challenge: string }).challenge,
      credential_id: credentialId,
      public_key: b64url(pair.publicKey.export({ type: "spki", format: "der" })),
      algorithm: -7,
      counter: 0,
      transports: ["internal"],
      name: "Test key",
      rp_id: "localhost",
      wrapped_ecdh_private_key: "",
      wrapped_rsa_private_key: "",
    },
  });
  expect(added.status, added.text).toBe(200);
  const passkeyId = (added.json as { id: string }).id;
  const signInWith = async () => {
    const asked = await send(base, "/api/chat/passkeys/challenge", { body: { purpose: "signin" } });
    const origin = "http://localhost:3000";
    const clientData = Buffer.from(
      JSON.stringify({ type: "webauthn.get", challenge: (asked.json as { challenge: string }).challenge, origin }),
    );
    const authData = Buffer.concat([sha256("localhost"), Buffer.from([0x05]), Buffer.from([0, 0, 0, 1])]);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientData)]), pair.privateKey);
    return send(base, "/api/chat/passkeys/signin", {
      body: {
        credential_id: credentialId,
        client_data_json: b64url(clientData),
        authenticator_data: b64url(authData),
        signature: b64url(signature),
        user_handle: b64url(Buffer.from(userId)),
        origin,
        rp_id: "localhost",
      },
    });
  };
  return { passkeyId, signInWith };
}
