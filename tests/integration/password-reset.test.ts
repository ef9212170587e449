// The password reset (docs/decisions/0027-recovery-key-and-password-reset.md) against a real PocketBase
// and the production web server: with the recovery key's wrapping or with new keys, used and forged
// links, and every session ended.

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { client, createChannel, fakePublicKey, postJson, postMessage, randomSecret, statusOf } from "./pocketbase";
import { signUpConfirmed } from "./signup-link";
import { INVALID_LINK, outcome, resetToken, startRecoveryStack, wrapped, type RecoveryStack } from "./recovery-stack";
import { WebClient, signedInClient } from "./web-session";

let stack: RecoveryStack;

beforeAll(async () => {
  stack = await startRecoveryStack();
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

const open = (token: unknown) => postJson(stack.pb.url, "/api/chat/password-reset/open", { token });

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

describe("the reset", () => {
  it("refuses bad, forged and wrong-type tokens with one message", async () => {
    const user = await signUpConfirmed(stack.pb.url, stack.smtp);
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
      expect((await postJson(stack.pb.url, "/api/chat/password-reset/confirm", confirmBody(String(token)))).status).toBe(400);
    }
  });

  it("with the recovery key's wrapping: the new login secret signs in, the old one no longer; the link is used up; every session ends", async () => {
    const user = await signUpConfirmed(stack.pb.url, stack.smtp);
    const recovery = { wrapped_ecdh: wrapped(), wrapped_rsa: wrapped() };
    expect((await postJson(stack.pb.url, "/api/chat/recovery-key", recovery, user.token)).status).toBe(200);
    const browser = await signedInClient(stack.web.url, user);
    const channel = await createChannel(user);
    let streamEnded = false;
    await browser.openEvents(
      channel.id,
      () => undefined,
      60_000,
      () => (streamEnded = true),
    );

    const token = await resetToken(stack, user);
    const opened = await open(token);
    expect(opened.status).toBe(200);
    const profile = await stack.admin.collection("profiles").getOne(user.id);
    expect(opened.json).toEqual({
      user_id: user.id,
      email: user.email,
      kdf_iterations: 600_000,
      ecdh_public_key: profile.ecdh_public_key,
      rsa_public_key: profile.rsa_public_key,
      passkey_unlocks: false,
      recovery: { ...recovery, created: expect.any(String) },
    });

    const body = confirmBody(token);
    const done = await postJson(stack.pb.url, "/api/chat/password-reset/confirm", body);
    expect(done.status, done.text).toBe(200);
    expect(done.json).toEqual({ keys: "kept" });

    const account = await stack.admin.collection("users").getOne(user.id);
    expect(account).toMatchObject({
      encrypted_ecdh_private_key: body.encrypted_ecdh_private_key,
      encrypted_rsa_private_key: body.encrypted_rsa_private_key,
      verified: true,
    });
    expect(await statusOf(client(stack.pb.url).collection("users").authWithPassword(user.email, body.password))).toBe(200);
    expect(await statusOf(client(stack.pb.url).collection("users").authWithPassword(user.email, user.password))).toBe(400);
    // the recovery wrapping still opens the same keys: it stays, as do the public keys
    expect(await stack.admin.collection("recovery_keys").getFullList({ filter: `user = "${user.id}"` })).toMatchObject([recovery]);
    expect(await stack.admin.collection("profiles").getOne(user.id)).toMatchObject({ ecdh_public_key: profile.ecdh_public_key });

    // the token is used up
    expect((await open(token)).status).toBe(400);
    expect((await postJson(stack.pb.url, "/api/chat/password-reset/confirm", confirmBody(token))).status).toBe(400);
    // every session ended: the old token is refused, and the web session's live stream closed at once
    expect(await statusOf(user.pb.send("/api/chat/session", {}))).toBe(401);
    await vi.waitFor(() => expect(streamEnded).toBe(true), { timeout: 10_000, interval: 100 });
  });

  it("of two resets with one link, only the first goes through", async () => {
    const user = await signUpConfirmed(stack.pb.url, stack.smtp);
    const token = await resetToken(stack, user);
    const answers = await Promise.all([0, 1, 2].map(() => postJson(stack.pb.url, "/api/chat/password-reset/confirm", confirmBody(token))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
  });

  it("without the recovery key (through the web app): new public keys, and what the old keys sealed is gone, passkeys included", async () => {
    const user = await signUpConfirmed(stack.pb.url, stack.smtp);
    const friend = await signUpConfirmed(stack.pb.url, stack.smtp);
    const channel = await createChannel(user);
    const recordsOf = async (collection: string, filter: string) =>
      (await stack.admin.collection(collection).getFullList({ filter })).length;
    const sealed = () => randomBytes(40).toString("base64url");
    // what the user's old keys sealed, and what they sign
    await user.pb.collection("keyring_entries").create({ user: user.id, channel: channel.id, data: sealed() });
    expect(
      (
        await postJson(
          stack.pb.url,
          "/api/chat/pins",
          { subject: friend.id, data: sealed(), head: { counter: 1, data: sealed() } },
          user.token,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await postJson(
          stack.pb.url,
          "/api/chat/pins",
          { subject: user.id, data: sealed(), head: { counter: 1, data: sealed() } },
          friend.token,
        )
      ).status,
    ).toBe(200);
    await user.pb.collection("whatsapp_contacts").create({ user: user.id, name: sealed(), phone_number: sealed() });
    await stack.admin.collection("users").update(user.id, { encrypted_settings: sealed() });
    await postJson(stack.pb.url, "/api/chat/recovery-key", { wrapped_ecdh: wrapped(), wrapped_rsa: wrapped() }, user.token);
    await stack.admin.collection("mls_key_packages").create({ user: user.id, device: "old-device", data: sealed(), last_resort: true });
    // the message archive (ADR 0048), sealed under a vault key of the old key pair; written by the route only, here by the superuser
    const read = await postMessage(user, channel.id);
    await stack.admin.collection("message_archive").create({ owner: user.id, channel: channel.id, message: read.id, data: sealed() });
    // passkeys: their PRF wrappings hold the old keys, so the user's passkeys go (not only their wrappings)
    const passkeyOf = (owner: string, wrappings: Record<string, string> = {}) =>
      stack.admin.collection("passkeys").create({
        user: owner,
        credential_id: randomBytes(32).toString("base64url"),
        public_key: randomBytes(91).toString("base64url"),
        algorithm: -7,
        name: "Laptop",
        rp_id: "127.0.0.1",
        ...wrappings,
      });
    const friendsPasskey = await passkeyOf(friend.id);
    await passkeyOf(user.id, { wrapped_ecdh_private_key: wrapped(), wrapped_rsa_private_key: wrapped() });

    const token = await resetToken(stack, user);
    const browser = new WebClient(stack.web.url);
    await browser.loadPage();
    const account = await browser.api("/api/auth/reset-password", { intent: "open", token });
    // (its passkey holds the keys: the reset page says to sign in with it instead, and that a reset removes it)
    expect(account).toMatchObject({ userId: user.id, email: user.email, passkeyUnlocks: true, recovery: { created: expect.any(String) } });
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

    expect(await stack.admin.collection("profiles").getOne(user.id)).toMatchObject({
      ecdh_public_key: newKeys.ecdhPublicKey,
      rsa_public_key: newKeys.rsaPublicKey,
    });
    expect((await stack.admin.collection("channel_members").getFirstListItem(`user = "${user.id}"`)).ecdh_public_key).toBe(
      newKeys.ecdhPublicKey,
    );
    for (const [collection, field] of [
      ["keyring_entries", "user"],
      ["key_pins", "owner"],
      ["key_pin_heads", "owner"],
      ["whatsapp_contacts", "user"],
      ["recovery_keys", "user"],
      ["mls_key_packages", "user"],
      ["passkeys", "user"],
      ["message_archive", "owner"],
    ])
      expect(await recordsOf(collection, `${field} = "${user.id}"`), collection).toBe(0);
    expect((await stack.admin.collection("users").getOne(user.id)).encrypted_settings).toBe("");
    // what others hold stays: the friend's pin of the user's old keys (it is what warns them) and the friend's passkey
    expect(await recordsOf("key_pins", `owner = "${friend.id}" && subject = "${user.id}"`)).toBe(1);
    expect(await recordsOf("passkeys", `id = "${friendsPasskey.id}"`)).toBe(1);
    // the membership stays; the new login secret signs in
    expect(await recordsOf("channel_members", `user = "${user.id}"`)).toBe(1);
    expect(await statusOf(client(stack.pb.url).collection("users").authWithPassword(user.email, loginSecret))).toBe(200);

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
