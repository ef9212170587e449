// Account recovery (docs/decisions/0027-recovery-key-and-password-reset.md) against a real PocketBase
// sending through a real SMTP server on loopback, and the production web server in front of it: the
// recovery key's wrapping, the reset email, and the reset itself (with the recovery key's wrapping, or
// with new keys), used tokens, every session ended, and the limits on asking for reset emails.

import { randomBytes } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort } from "../ports";
import { startCaptureServer, type CaptureServer } from "./smtp";
import {
  client,
  createChannel,
  fakePublicKey,
  postJson,
  randomSecret,
  signUpUser,
  startPocketBase,
  statusOf,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";
import { WebClient, signedInClient, startWebServer, type WebServer } from "./web-session";

const SENT = "If an account exists for that address, we sent a link to reset its password.";
const INVALID_LINK = "This reset link is invalid, has expired or was already used. Ask for a new one from the sign-in screen.";

let smtp: CaptureServer;
let pb: RunningPocketBase;
let web: WebServer;
let admin: PocketBase;
let appUrl: string;
let visitor: WebClient;

beforeAll(async () => {
  smtp = await startCaptureServer();
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  pb = await startPocketBase({ env: { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), SMTP_TLS: "false", APP_URL: appUrl } });
  web = await startWebServer(pb.url, { port, env: { TRUST_PROXY: "1" } });
  admin = await superuserClient(pb.url, pb.superuser);
  visitor = new WebClient(web.url);
  await visitor.loadPage();
}, 180_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
  await smtp?.stop();
});

/** A private key wrapped the way app/crypto/keys.ts writes it (random bytes: the server never looks inside). */
const wrapped = () => `v1.${randomBytes(12).toString("base64url")}.${randomBytes(300).toString("base64url")}`;

/** The status and message of a failed call, or 200 and "" for a success. */
async function outcome(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
    return { status: 200, message: "" };
  } catch (error) {
    const { status, message } = error as { status?: number; message: string };
    if (typeof status !== "number") throw error;
    return { status, message };
  }
}

/** Asks for a reset email through the web app and returns the token of the link it carries. */
async function resetToken(user: TestUser): Promise<string> {
  const before = smtp.mailsTo(user.email).length;
  expect(await visitor.api("/api/auth/forgot-password", { email: user.email })).toEqual({ message: SENT });
  const mail = await vi.waitFor(
    () => {
      const mails = smtp.mailsTo(user.email);
      expect(mails.length).toBe(before + 1);
      return mails[mails.length - 1];
    },
    { timeout: 10_000, interval: 100 },
  );
  expect(mail.subject).toBe("Reset your ChatCrypt password");
  const link = /href="([^"]+)"/.exec(mail.html)?.[1] ?? "";
  expect(link.startsWith(`${appUrl}/reset-password#token=`), link).toBe(true);
  return new URLSearchParams(new URL(link).hash.slice(1)).get("token") ?? "";
}

const open = (token: unknown) => postJson(pb.url, "/api/chat/password-reset/open", { token });

function confirmBody(token: string, extra: Record<string, unknown> = {}) {
  return {
    token,
    password: randomSecret(),
    encrypted_ecdh_private_key: wrapped(),
    encrypted_rsa_private_key: wrapped(),
    kdf_iterations: 600_000,
    ...extra,
  };
}

describe("the recovery key's wrapping", () => {
  it("is stored through the hook only, one per user, a new one replacing the old; only its owner reads it", async () => {
    const alice = await signUpUser(pb.url);
    const bob = await signUpUser(pb.url);
    const first = { wrapped_ecdh: wrapped(), wrapped_rsa: wrapped() };
    const saved = await postJson(pb.url, "/api/chat/recovery-key", first, alice.token);
    expect(saved.status).toBe(200);
    expect((saved.json as { created: string }).created).toMatch(/^\d{4}-\d\d-\d\d /);

    const second = { wrapped_ecdh: wrapped(), wrapped_rsa: wrapped() };
    expect((await postJson(pb.url, "/api/chat/recovery-key", second, alice.token)).status).toBe(200);
    const mine = await alice.pb.collection("recovery_keys").getFullList();
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ user: alice.id, ...second });

    expect(await bob.pb.collection("recovery_keys").getFullList()).toHaveLength(0);
    expect(await statusOf(bob.pb.collection("recovery_keys").getOne(mine[0].id))).toBe(404);
    // nobody writes it past the hook, not even its owner
    expect(await statusOf(alice.pb.collection("recovery_keys").create({ user: alice.id, ...first }))).toBe(403);
    expect(await statusOf(alice.pb.collection("recovery_keys").update(mine[0].id, first))).toBe(403);
    expect(await statusOf(alice.pb.collection("recovery_keys").delete(mine[0].id))).toBe(403);

    // and through the web app: the page learns when it was made, never the wrapping
    const browser = await signedInClient(web.url, alice);
    const status = await browser.api("/api/recovery-key");
    expect(Object.keys(status)).toEqual(["created"]);
    expect(status.created).toBe(mine[0].created);
  });

  it("refuses what is not a wrapped key, and a guest", async () => {
    const user = await signUpUser(pb.url);
    const cases: [unknown, number][] = [
      [{ wrapped_ecdh: "plain text", wrapped_rsa: wrapped() }, 400],
      [{ wrapped_ecdh: wrapped(), wrapped_rsa: `v1.${"a".repeat(9000)}.b` }, 400],
      [{ wrapped_ecdh: wrapped() }, 400],
      [[], 400],
    ];
    for (const [body, status] of cases) expect((await postJson(pb.url, "/api/chat/recovery-key", body, user.token)).status).toBe(status);
    expect((await postJson(pb.url, "/api/chat/recovery-key", { wrapped_ecdh: wrapped(), wrapped_rsa: wrapped() })).status).toBe(401);
    expect(await user.pb.collection("recovery_keys").getFullList()).toHaveLength(0);
  });
});

describe("the reset email", () => {
  it("links to the web app's /reset-password page, and answers the same for an address without an account", async () => {
    const user = await signUpUser(pb.url);
    const token = await resetToken(user);
    expect(token.length).toBeGreaterThan(20);
    const page = await fetch(`${appUrl}/reset-password`, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Reset your password");

    const nobody = `nobody-${randomBytes(4).toString("hex")}@example.test`;
    expect(await visitor.api("/api/auth/forgot-password", { email: nobody })).toEqual({ message: SENT });
    // decided before answering: no account, no mail (nothing is sent in the background for it)
    expect(smtp.mailsTo(nobody)).toHaveLength(0);
    expect(await outcome(visitor.api("/api/auth/forgot-password", { email: "not an address" }))).toEqual({
      status: 400,
      message: "Please enter a valid email address.",
    });
  });

  it("is limited per client address like PocketBase's own (2 in 5 minutes), whatever the address asked for", async () => {
    await admin.settings.update({ rateLimits: { excludedIPs: [] } });
    try {
      const from = (ip: string, email: string) =>
        outcome(visitor.api("/api/auth/forgot-password", { email }, { headers: { "X-Forwarded-For": ip } }));
      const someone = () => `someone-${randomBytes(4).toString("hex")}@example.test`;
      expect((await from("203.0.113.20", someone())).status).toBe(200);
      expect((await from("203.0.113.20", someone())).status).toBe(200);
      expect(await from("203.0.113.20", someone())).toEqual({
        status: 429,
        message: "Too many attempts. Please wait a few minutes and try again.",
      });
      expect((await from("203.0.113.21", someone())).status).toBe(200);
    } finally {
      await admin.settings.update({ rateLimits: { excludedIPs: ["127.0.0.1"] } });
    }
  });

  it("PocketBase's own confirm step is closed: only the reset that re-wraps the keys sets a password", async () => {
    const user = await signUpUser(pb.url);
    const token = await resetToken(user);
    const res = await postJson(pb.url, "/api/collections/users/confirm-password-reset", {
      token,
      password: "a-new-password-123",
      passwordConfirm: "a-new-password-123",
    });
    expect(res.status).toBe(400);
    expect(await statusOf(client(pb.url).collection("users").authWithPassword(user.email, user.password))).toBe(200);
  });
});

describe("the reset", () => {
  it("refuses bad, forged and wrong-type tokens with one message", async () => {
    const user = await signUpUser(pb.url);
    const [head, payload] = user.token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const forged = [
      head,
      Buffer.from(JSON.stringify({ ...claims, type: "passwordReset", email: user.email })).toString("base64url"),
      "x",
    ].join(".");
    for (const token of ["", "not-a-token", user.token, forged, "a".repeat(5000), 42, null]) {
      const res = await open(token);
      expect(res.status, String(token).slice(0, 40)).toBe(400);
      expect((res.json as { message: string }).message).toBe(INVALID_LINK);
      expect((await postJson(pb.url, "/api/chat/password-reset/confirm", confirmBody(String(token)))).status).toBe(400);
    }
  });

  it("with the recovery key's wrapping: the new login secret signs in, the old one no longer; the link is used up; every session ends", async () => {
    const user = await signUpUser(pb.url);
    const recovery = { wrapped_ecdh: wrapped(), wrapped_rsa: wrapped() };
    expect((await postJson(pb.url, "/api/chat/recovery-key", recovery, user.token)).status).toBe(200);
    const browser = await signedInClient(web.url, user);
    const channel = await createChannel(user);
    let streamEnded = false;
    await browser.openEvents(
      channel.id,
      () => undefined,
      60_000,
      () => (streamEnded = true),
    );

    const token = await resetToken(user);
    const opened = await open(token);
    expect(opened.status).toBe(200);
    const profile = await admin.collection("profiles").getOne(user.id);
    expect(opened.json).toEqual({
      user_id: user.id,
      email: user.email,
      kdf_iterations: 600_000,
      ecdh_public_key: profile.ecdh_public_key,
      rsa_public_key: profile.rsa_public_key,
      recovery: { ...recovery, created: expect.any(String) },
    });

    const body = confirmBody(token);
    const done = await postJson(pb.url, "/api/chat/password-reset/confirm", body);
    expect(done.status, done.text).toBe(200);
    expect(done.json).toEqual({ keys: "kept" });

    const account = await admin.collection("users").getOne(user.id);
    expect(account).toMatchObject({
      encrypted_ecdh_private_key: body.encrypted_ecdh_private_key,
      encrypted_rsa_private_key: body.encrypted_rsa_private_key,
      verified: true,
    });
    expect(await statusOf(client(pb.url).collection("users").authWithPassword(user.email, body.password))).toBe(200);
    expect(await statusOf(client(pb.url).collection("users").authWithPassword(user.email, user.password))).toBe(400);
    // the recovery wrapping still opens the same keys: it stays, as do the public keys
    expect(await admin.collection("recovery_keys").getFullList({ filter: `user = "${user.id}"` })).toMatchObject([recovery]);
    expect(await admin.collection("profiles").getOne(user.id)).toMatchObject({ ecdh_public_key: profile.ecdh_public_key });

    // the token is used up
    expect((await open(token)).status).toBe(400);
    expect((await postJson(pb.url, "/api/chat/password-reset/confirm", confirmBody(token))).status).toBe(400);
    // every session ended: the old token is refused, and the web session's live stream closed at once
    expect(await statusOf(user.pb.send("/api/chat/session", {}))).toBe(401);
    await vi.waitFor(() => expect(streamEnded).toBe(true), { timeout: 10_000, interval: 100 });
  });

  it("of two resets with one link, only the first goes through", async () => {
    const user = await signUpUser(pb.url);
    const token = await resetToken(user);
    const answers = await Promise.all([0, 1, 2].map(() => postJson(pb.url, "/api/chat/password-reset/confirm", confirmBody(token))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
  });

  it("without the recovery key (through the web app): new public keys, and what the old keys sealed is gone, passkeys included", async () => {
    const user = await signUpUser(pb.url);
    const friend = await signUpUser(pb.url);
    const channel = await createChannel(user);
    const recordsOf = async (collection: string, filter: string) => (await admin.collection(collection).getFullList({ filter })).length;
    const sealed = () => randomBytes(40).toString("base64url");
    // what the user's old keys sealed, and what they sign
    await user.pb.collection("keyring_entries").create({ user: user.id, channel: channel.id, data: sealed() });
    expect(
      (await postJson(pb.url, "/api/chat/pins", { subject: friend.id, data: sealed(), head: { counter: 1, data: sealed() } }, user.token))
        .status,
    ).toBe(200);
    expect(
      (await postJson(pb.url, "/api/chat/pins", { subject: user.id, data: sealed(), head: { counter: 1, data: sealed() } }, friend.token))
        .status,
    ).toBe(200);
    await user.pb.collection("whatsapp_contacts").create({ user: user.id, name: sealed(), phone_number: sealed() });
    await admin.collection("users").update(user.id, { encrypted_settings: sealed() });
    await postJson(pb.url, "/api/chat/recovery-key", { wrapped_ecdh: wrapped(), wrapped_rsa: wrapped() }, user.token);
    await admin.collection("mls_key_packages").create({ user: user.id, device: "old-device", data: sealed(), last_resort: true });
    // a passkeys collection as another part of the product adds it (made here when it is not there yet):
    // the user's passkeys go too
    type Field = { name: string; type: string; required?: boolean; system?: boolean; collectionId?: string; values?: string[] };
    const existing = await admin.collections.getFirstListItem('name = "passkeys"').catch(() => null);
    const passkeys =
      existing ??
      (await admin.collections.create({
        name: "passkeys",
        type: "base",
        fields: [
          { name: "user", type: "relation", required: true, collectionId: "_pb_users_auth_", maxSelect: 1 },
          { name: "credential", type: "text" },
        ],
      }));
    const fields = (passkeys as { fields: unknown }).fields as Field[];
    const ownerField = fields.find((f) => f.type === "relation" && f.collectionId === "_pb_users_auth_")!.name;
    const samples: Record<string, unknown> = { text: "sample", number: 1, bool: true, json: {}, date: "2026-01-01 00:00:00.000Z" };
    const passkeyOf = (owner: string) => {
      const record: Record<string, unknown> = { [ownerField]: owner };
      for (const f of fields)
        if (f.required && !f.system && !(f.name in record)) record[f.name] = f.values?.[0] ?? samples[f.type] ?? owner;
      return admin.collection("passkeys").create(record);
    };
    const friendsPasskey = await passkeyOf(friend.id);
    await passkeyOf(user.id);

    const token = await resetToken(user);
    const browser = new WebClient(web.url);
    await browser.loadPage();
    const account = await browser.api("/api/auth/reset-password", { intent: "open", token });
    expect(account).toMatchObject({ userId: user.id, email: user.email, recovery: { created: expect.any(String) } });
    const newKeys = { ecdhPublicKey: fakePublicKey(), rsaPublicKey: fakePublicKey() };
    const loginSecret = randomSecret();
    const answer = await browser.api("/api/auth/reset-password", {
      intent: "confirm",
      token,
      loginSecret,
      encryptedEcdhPrivateKey: wrapped(),
      encryptedRsaPrivateKey: wrapped(),
      kdfIterations: 600_000,
      newPublicKeys: newKeys,
    });
    expect(answer).toEqual({ keys: "new" });

    expect(await admin.collection("profiles").getOne(user.id)).toMatchObject({
      ecdh_public_key: newKeys.ecdhPublicKey,
      rsa_public_key: newKeys.rsaPublicKey,
    });
    expect((await admin.collection("channel_members").getFirstListItem(`user = "${user.id}"`)).ecdh_public_key).toBe(newKeys.ecdhPublicKey);
    for (const [collection, field] of [
      ["keyring_entries", "user"],
      ["key_pins", "owner"],
      ["key_pin_heads", "owner"],
      ["whatsapp_contacts", "user"],
      ["recovery_keys", "user"],
      ["mls_key_packages", "user"],
      ["passkeys", ownerField],
    ])
      expect(await recordsOf(collection, `${field} = "${user.id}"`), collection).toBe(0);
    expect((await admin.collection("users").getOne(user.id)).encrypted_settings).toBe("");
    // what others hold stays: the friend's pin of the user's old keys (it is what warns them) and the friend's passkey
    expect(await recordsOf("key_pins", `owner = "${friend.id}" && subject = "${user.id}"`)).toBe(1);
    expect(await recordsOf("passkeys", `id = "${friendsPasskey.id}"`)).toBe(1);
    // the membership stays; the new login secret signs in
    expect(await recordsOf("channel_members", `user = "${user.id}"`)).toBe(1);
    expect(await statusOf(client(pb.url).collection("users").authWithPassword(user.email, loginSecret))).toBe(200);

    // the web route checks its bodies too
    expect(await outcome(browser.api("/api/auth/reset-password", { intent: "confirm", token, loginSecret: "short" }))).toMatchObject({
      status: 400,
    });
    expect(await outcome(browser.api("/api/auth/reset-password", { intent: "open", token }))).toEqual({
      status: 400,
      message: INVALID_LINK,
    });
  });
});
