// The recovery key's wrapping and the reset email (docs/decisions/0027-recovery-key-and-password-reset.md)
// against a real PocketBase sending through a real SMTP server on loopback, and the production web server
// in front of it: who reads and writes the wrapping, the link the email carries, the same answer for
// every address, and the limits on asking.

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, postJson, statusOf } from "./pocketbase";
import { signUpConfirmed } from "./signup-link";
import { SENT, outcome, resetToken, startRecoveryStack, wrapped, type RecoveryStack } from "./recovery-stack";
import { signedInClient } from "./web-session";

let stack: RecoveryStack;

beforeAll(async () => {
  stack = await startRecoveryStack();
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe("the recovery key's wrapping", () => {
  it("is stored through the hook only, one per user, a new one replacing the old; only its owner reads it", async () => {
    const alice = await signUpConfirmed(stack.pb.url, stack.smtp);
    const bob = await signUpConfirmed(stack.pb.url, stack.smtp);
    const first = { wrapped_ecdh: wrapped(), wrapped_rsa: wrapped() };
    const saved = await postJson(stack.pb.url, "/api/chat/recovery-key", first, alice.token);
    expect(saved.status).toBe(200);
    expect((saved.json as { created: string }).created).toMatch(/^\d{4}-\d\d-\d\d /);

    const second = { wrapped_ecdh: wrapped(), wrapped_rsa: wrapped() };
    expect((await postJson(stack.pb.url, "/api/chat/recovery-key", second, alice.token)).status).toBe(200);
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
    const browser = await signedInClient(stack.web.url, alice);
    const status = await browser.api("/api/recovery-key");
    expect(Object.keys(status)).toEqual(["created"]);
    expect(status.created).toBe(mine[0].created);
  });

  it("refuses what is not a wrapped key, and a guest", async () => {
    const user = await signUpConfirmed(stack.pb.url, stack.smtp);
    const cases: [unknown, number][] = [
      [{ wrapped_ecdh: "plain text", wrapped_rsa: wrapped() }, 400],
      [{ wrapped_ecdh: wrapped(), wrapped_rsa: `v1.${"a".repeat(9000)}.b` }, 400],
      [{ wrapped_ecdh: wrapped() }, 400],
      [[], 400],
    ];
    for (const [body, status] of cases)
      expect((await postJson(stack.pb.url, "/api/chat/recovery-key", body, user.token)).status).toBe(status);
    expect((await postJson(stack.pb.url, "/api/chat/recovery-key", { wrapped_ecdh: wrapped(), wrapped_rsa: wrapped() })).status).toBe(401);
    expect(await user.pb.collection("recovery_keys").getFullList()).toHaveLength(0);
  });
});

describe("the reset email", () => {
  it("links to the web app's /reset-password page, and answers the same for an address without an account", async () => {
    const user = await signUpConfirmed(stack.pb.url, stack.smtp);
    const token = await resetToken(stack, user);
    expect(token.length).toBeGreaterThan(20);
    const page = await fetch(`${stack.appUrl}/reset-password`, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Reset your password");

    const nobody = `nobody-${randomBytes(4).toString("hex")}@example.test`;
    expect(await stack.visitor.api("/api/auth/forgot-password", { email: nobody })).toEqual({ message: SENT });
    // decided before answering: no account, no mail (nothing is sent in the background for it)
    expect(stack.smtp.mailsTo(nobody)).toHaveLength(0);
    expect(await outcome(stack.visitor.api("/api/auth/forgot-password", { email: "not an address" }))).toEqual({
      status: 400,
      message: "Please enter a valid email address.",
    });
  });

  it("is limited per client address like PocketBase's own (2 in 5 minutes), whatever the address asked for", async () => {
    await stack.admin.settings.update({ rateLimits: { excludedIPs: [] } });
    try {
      const from = (ip: string, email: string) =>
        outcome(stack.visitor.api("/api/auth/forgot-password", { email }, { headers: { "X-Forwarded-For": ip } }));
      const someone = () => `someone-${randomBytes(4).toString("hex")}@example.test`;
      expect((await from("203.0.113.20", someone())).status).toBe(200);
      expect((await from("203.0.113.20", someone())).status).toBe(200);
      expect(await from("203.0.113.20", someone())).toEqual({
        status: 429,
        message: "Too many attempts. Please wait a few minutes and try again.",
      });
      expect((await from("203.0.113.21", someone())).status).toBe(200);
    } finally {
      await stack.admin.settings.update({ rateLimits: { excludedIPs: ["127.0.0.1"] } });
    }
  });

  it("PocketBase's own confirm step is closed: only the reset that re-wraps the keys sets a password", async () => {
    const user = await signUpConfirmed(stack.pb.url, stack.smtp);
    const token = await resetToken(stack, user);
    const res = await postJson(stack.pb.url, "/api/collections/users/confirm-password-reset", {
      token,
      password: "a-new-password-123",
      passwordConfirm: "a-new-password-123",
    });
    expect(res.status).toBe(400);
    expect(await statusOf(client(stack.pb.url).collection("users").authWithPassword(user.email, user.password))).toBe(200);
  });
});
