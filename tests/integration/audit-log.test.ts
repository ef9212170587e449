// The audit log against a real PocketBase mailing through a real SMTP server (docs/decisions/0054-audit-log.md):
// each security event appends an entry with who, when, the address and the device, never a secret; the
// chain verifies, and a row changed or removed through the superuser's API is named; only the owner and
// admins read the log, each person reads their own entries.

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCaptureServer, type CaptureServer } from "./smtp";
import { openSignUpLink } from "./signup-link";
import {
  fakePublicKey,
  postMessage,
  randomVerifier,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";
import {
  ADDRESS,
  AGENT,
  addPasskey,
  changePassword,
  mailedToken,
  send,
  signIn,
  wrapped,
  type AuditEntry,
  type AuditPage,
} from "./audit-stack";

let smtp: CaptureServer;
let pb: RunningPocketBase;
let owner: TestUser;
let carol: TestUser;
let carolToken = "";
const CANARY = "canary-message-text-4711";

beforeAll(async () => {
  smtp = await startCaptureServer();
  pb = await startPocketBase({
    env: { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), SMTP_TLS: "false", APP_URL: "https://chat.example.test" },
  });
  owner = await signUpUser(pb.url);
  carol = await signUpUser(pb.url);
});

afterAll(async () => {
  await pb?.stop();
  await smtp?.stop();
});

const log = async (query = "", token = owner.token) => {
  const answer = await send(pb.url, `/api/chat/admin/audit${query}`, { token });
  expect(answer.status, answer.text).toBe(200);
  return answer.json as AuditPage;
};
const actionsOf = (items: AuditEntry[]) => items.map((entry) => entry.action).reverse();

describe("recording", () => {
  it("records each security event of an account with who, when, address and device, and no secret", async () => {
    // (a reset is mailed only to an address whose sign-up link was opened: ADR 82)
    await openSignUpLink(pb.url, smtp, carol);
    const started = Date.now();
    carolToken = await signIn(pb.url, carol.email, carol.password);
    const changed = await changePassword(pb.url, carol, carolToken);
    carol = { ...carol, password: changed.password };
    carolToken = changed.token;
    expect(
      (await send(pb.url, "/api/chat/recovery-key", { token: carolToken, body: { wrapped_ecdh: wrapped(), wrapped_rsa: wrapped() } }))
        .status,
    ).toBe(200);

    // a reset that keeps the keys: the page opened them with the recovery key
    const resetMails = smtp.mailsTo(carol.email).length;
    expect((await send(pb.url, "/api/collections/users/request-password-reset", { body: { email: carol.email } })).status).toBe(204);
    const resetToken = await mailedToken(smtp, carol.email, resetMails);
    const resetPassword = `reset_canary_${"r".repeat(30)}`;
    const reset = await send(pb.url, "/api/chat/password-reset/confirm", {
      body: {
        token: resetToken,
        password: resetPassword,
        encrypted_ecdh_private_key: wrapped(),
        encrypted_rsa_private_key: wrapped(),
        kdf_iterations: 600_000,
      },
    });
    expect(reset.status, reset.text).toBe(200);
    carol = { ...carol, password: resetPassword };
    carolToken = await signIn(pb.url, carol.email, carol.password);

    const newEmail = `moved-${carol.id}@example.test`;
    const asked = await send(pb.url, "/api/chat/account/email-change", {
      token: carolToken,
      body: { new_email: newEmail, password: carol.password },
    });
    expect(asked.status, asked.text).toBe(200);
    const emailToken = await mailedToken(smtp, newEmail, 0);
    const moved = await send(pb.url, "/api/chat/account/email-change/confirm", {
      body: {
        token: emailToken,
        password: carol.password,
        new_password: "x".repeat(43),
        encrypted_ecdh_private_key: wrapped(),
        encrypted_rsa_private_key: wrapped(),
        kdf_iterations: 600_000,
      },
    });
    expect(moved.status, moved.text).toBe(200);
    carol = { ...carol, email: newEmail, password: "x".repeat(43) };
    carolToken = await signIn(pb.url, carol.email, carol.password);

    const passkey = await addPasskey(pb.url, carol.id, carolToken);
    const passkeySignIn = await passkey.signInWith();
    expect(passkeySignIn.status, passkeySignIn.text).toBe(200);
    const removed = await send(pb.url, `/api/collections/passkeys/records/${passkey.passkeyId}`, { method: "DELETE", token: carolToken });
    expect(removed.status, removed.text).toBe(204);

    // another device of hers, signed out from this one
    await signIn(pb.url, carol.email, carol.password);
    const sessions = (await send(pb.url, "/api/chat/sessions", { token: carolToken })).json as {
      sessions: { id: string; current: boolean }[];
    };
    const other = sessions.sessions.find((session) => !session.current)!;
    expect((await send(pb.url, `/api/chat/sessions/${other.id}/revoke`, { token: carolToken, body: {} })).status).toBe(204);

    const channel = { id: randomUUID() };
    const created = await send(pb.url, "/api/chat/channels", {
      token: carolToken,
      body: { id: channel.id, name: "Secret plans", verifier: randomVerifier(), ecdh_public_key: fakePublicKey(), kdf_iterations: 600_000 },
    });
    expect(created.status, created.text).toBe(200);
    carol.pb.authStore.save(carolToken, null);
    await postMessage(carol, channel.id, CANARY);
    expect((await send(pb.url, `/api/collections/channels/records/${channel.id}`, { method: "DELETE", token: carolToken })).status).toBe(
      204,
    );
    expect((await send(pb.url, "/api/chat/account/export", { token: carolToken })).status).toBe(200);

    const { items } = await log(`?person=${carol.id}`);
    expect(actionsOf(items)).toEqual([
      "account.created",
      "signin.succeeded",
      "password.changed",
      "recovery_key.created",
      "recovery_key.used",
      "password.reset",
      "signin.succeeded",
      "email.changed",
      "signin.succeeded",
      "passkey.added",
      "signin.succeeded",
      "passkey.removed",
      "signin.succeeded",
      "session.revoked",
      "channel.created",
      "channel.deleted",
      "account.exported",
    ]);
    for (const entry of items.slice(0, -1)) {
      expect(entry.actor, entry.action).toBe(carol.id);
      expect(entry.actor_name).toBe(carol.username);
      expect(entry.ip, entry.action).toBe(ADDRESS);
      expect(entry.device, entry.action).toBe(AGENT);
      expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(started - 1000);
    }
    expect(items.find((entry) => entry.action === "signin.succeeded" && entry.details.method === "passkey")).toBeTruthy();
    expect(items.find((entry) => entry.action === "channel.created")!.target).toBe(channel.id);

    // nothing secret anywhere: passwords, login secrets, the message, the channel's name, keys
    const exported = await send(pb.url, "/api/chat/admin/audit/export", { token: owner.token });
    for (const secret of [CANARY, resetPassword, changed.password, "x".repeat(43), "Secret plans", carolToken]) {
      expect(exported.text).not.toContain(secret);
      expect(JSON.stringify(items)).not.toContain(secret);
    }
  });

  it("records a burst of failed sign-ins once, and nothing for an address without an account", async () => {
    const dave = await signUpUser(pb.url);
    const fail = (identity: string) =>
      send(pb.url, "/api/collections/users/auth-with-password", { body: { identity, password: "wrong-password-canary" } });
    for (let i = 0; i < 4; i++) expect((await fail(dave.email)).status).toBe(400);
    expect((await log(`?person=${dave.id}&action=signin.failed_burst`)).items).toHaveLength(0);
    expect((await fail(dave.email)).status).toBe(400);
    const bursts = (await log(`?person=${dave.id}&action=signin.failed_burst`)).items;
    expect(bursts).toHaveLength(1);
    expect(bursts[0]).toMatchObject({ actor: "", target: dave.id, ip: ADDRESS, details: { failures: 5, minutes: 10 } });
    // the same burst going on adds nothing (the guessing limit refuses them: they still count)
    for (let i = 0; i < 10; i++) await fail(dave.email);
    expect((await log(`?person=${dave.id}&action=signin.failed_burst`)).items).toHaveLength(1);
    const before = (await log()).totalItems;
    for (let i = 0; i < 6; i++) await fail(`nobody-${dave.id}@example.test`);
    expect((await log()).totalItems).toBe(before);
    expect((await log()).items.map((entry) => JSON.stringify(entry)).join("\n")).not.toContain("wrong-password-canary");
  });

  it("numbers entries made at the same moment one after another, losing none", async () => {
    const frank = await signUpUser(pb.url);
    const ids = Array.from({ length: 16 }, () => randomUUID());
    // in the transaction of each channel's creation
    const answers = await Promise.all(
      ids.map((id) =>
        send(pb.url, "/api/chat/channels", {
          token: frank.token,
          body: { id, name: "Parallel", verifier: randomVerifier(), ecdh_public_key: fakePublicKey(), kdf_iterations: 600_000 },
        }),
      ),
    );
    // and outside any transaction: exports of the account's data
    const exports = await Promise.all(ids.map(() => send(pb.url, "/api/chat/account/export", { token: frank.token })));
    expect([...answers, ...exports].map((answer) => answer.status)).toEqual([...ids, ...ids].map(() => 200));
    const created = (await log(`?person=${frank.id}&action=channel.created`)).items;
    expect(created.map((entry) => entry.target).sort()).toEqual([...ids].sort());
    expect((await log(`?person=${frank.id}&action=account.exported`)).totalItems).toBe(ids.length);
    const page = await log();
    expect(page.chain).toEqual({ ok: true, count: page.totalItems });
  });

  it("records the deletion of an account, and keeps its earlier entries", async () => {
    const erin = await signUpUser(pb.url);
    const deleted = await send(pb.url, "/api/chat/account/delete", { token: erin.token, body: { password: erin.password } });
    expect(deleted.status, deleted.text).toBe(200);
    const { items } = await log(`?person=${erin.id}`);
    expect(actionsOf(items)).toEqual(["account.created", "account.deleted"]);
    expect(items[0]).toMatchObject({ actor: erin.id, actor_name: "", details: { channels_deleted: 0, channels_handed_over: 0 } });
  });
});

describe("the superuser", () => {
  it("records a channel the superuser deletes in the dashboard, with no account as the actor", async () => {
    const gina = await signUpUser(pb.url);
    const id = randomUUID();
    const body = { id, name: "Dashboard", verifier: randomVerifier(), ecdh_public_key: fakePublicKey(), kdf_iterations: 600_000 };
    expect((await send(pb.url, "/api/chat/channels", { token: gina.token, body })).status).toBe(200);
    const su = await superuserClient(pb.url, pb.superuser);
    await su.collection("channels").delete(id);
    expect((await log(`?person=${gina.id}&action=channel.deleted`)).items).toHaveLength(0);
    const deleted = (await log("?action=channel.deleted")).items.find((item) => item.target === id);
    expect(deleted).toMatchObject({ actor: "", details: { by_superuser: true, sealed: false, direct: false } });
  });
});

describe("verifying", () => {
  it("verifies the chain, names an entry changed through the superuser's API, and a removed one", async () => {
    const before = await log();
    expect(before.chain).toEqual({ ok: true, count: before.totalItems });
    const su = await superuserClient(pb.url, pb.superuser);
    const row = (await su.collection("audit_log").getFirstListItem("seq = 3")) as unknown as {
      id: string;
      details: unknown;
      action: string;
    };

    await su.collection("audit_log").update(row.id, { details: { passkey: "someone-else" } });
    expect((await log()).chain).toEqual({ ok: false, count: 2, seq: 3 });
    await su.collection("audit_log").update(row.id, { details: row.details });
    expect((await log()).chain.ok).toBe(true);

    await su.collection("audit_log").update(row.id, { action: "role.changed" });
    expect((await log()).chain).toMatchObject({ ok: false, seq: 3 });
    await su.collection("audit_log").update(row.id, { action: row.action });
    expect((await log()).chain.ok).toBe(true);

    const fifth = await su.collection("audit_log").getFirstListItem("seq = 5");
    await su.collection("audit_log").delete(fifth.id);
    expect((await log()).chain).toEqual({ ok: false, count: 4, seq: 5 });
  });
});
