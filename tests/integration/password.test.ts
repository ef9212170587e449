// Account > Password against the real stack (our PocketBase, the production web server): the server
// step checks the current login secret, sets the new one and the re-wrapped keys in one transaction
// and signs out every other session; a refusal or a failure inside the transaction changes nothing.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, startLiveStack } from "./live-pages";
import { client, fakePublicKey, fakeWrappedKey, randomSecret, randomUserId, superuserClient } from "./pocketbase";
import { WebClient } from "./web-session";

const ENDED = "Your session has ended. Please sign in again.";

interface Account {
  id: string;
  email: string;
  loginSecret: string;
}

let stack: Awaited<ReturnType<typeof startLiveStack>>;
beforeAll(async () => {
  stack = await startLiveStack();
}, 240_000);
afterAll(async () => {
  await stack?.stop();
});

/** A private key as the browser wraps it: "v1." + base64url(IV) + "." + base64url(ciphertext). */

async function signUp(): Promise<[WebClient, Account]> {
  const page = new WebClient(stack.web.url);
  await page.loadPage();
  const id = randomUserId();
  const account = { id, email: `pw-${id}@example.test`, loginSecret: randomSecret() };
  await page.api("/api/auth/signup", {
    ...account,
    username: `pw_${id.slice(0, 10)}`,
    ecdhPublicKey: fakePublicKey(),
    rsaPublicKey: fakePublicKey(),
    encryptedEcdhPrivateKey: fakeWrappedKey(),
    encryptedRsaPrivateKey: fakeWrappedKey(),
    kdfIterations: 600_000,
  });
  return [page, account];
}

async function signIn(email: string, loginSecret: string) {
  const page = new WebClient(stack.web.url);
  await page.loadPage();
  const answer = (await page.api("/api/auth/signin", { email, loginSecret })) as { user: { encryptedEcdhPrivateKey: string } };
  return { page, user: answer.user };
}

async function refusal(call: Promise<unknown>): Promise<[number, string]> {
  try {
    await call;
  } catch (error) {
    const { status, message } = error as { status: number; message: string };
    return [status, message];
  }
  throw new Error("the call succeeded");
}

const sessionsOf = async (page: WebClient) =>
  ((await page.api("/api/auth/sessions")) as { sessions: { agent: string; firstSeen: string; current: boolean }[] }).sessions;

const change = (page: WebClient, currentLoginSecret: string, loginSecret: string, keys = [fakeWrappedKey(), fakeWrappedKey()]) =>
  page.api("/api/auth/password", {
    currentLoginSecret,
    loginSecret,
    encryptedEcdhPrivateKey: keys[0],
    encryptedRsaPrivateKey: keys[1],
    kdfIterations: 600_000,
  });

describe("change password", () => {
  it("sets the new login secret and keys in one step, signs every other session out, and keeps this one", async () => {
    const [laptop, account] = await signUp();
    const { page: phone } = await signIn(account.email, account.loginSecret);
    const phoneStream = await listen(phone);
    await phone.api("/api/unread");
    const [before] = await sessionsOf(laptop);
    const csrfBefore = laptop.csrf;

    const next = randomSecret();
    const keys = [fakeWrappedKey(), fakeWrappedKey()];
    expect(await change(laptop, account.loginSecret, next, keys)).toEqual({ ok: true });
    expect(laptop.csrf).not.toBe(csrfBefore);

    // the other device: stream closed, next request refused
    await expect.poll(() => phoneStream.ended(), { timeout: 5_000 }).toBe(true);
    expect(await refusal(phone.api("/api/unread"))).toEqual([401, ENDED]);
    // this device goes on, still the same device in the list (first seen kept)
    const after = await sessionsOf(laptop);
    expect(after.map((s) => [s.agent, s.current, s.firstSeen])).toEqual([[before.agent, true, before.firstSeen]]);
    await laptop.api("/api/unread");
    // the old login secret is refused, the new one opens the new wrapped keys
    expect(await refusal(signIn(account.email, account.loginSecret))).toEqual([400, "Invalid email or password."]);
    const { user } = await signIn(account.email, next);
    expect(user.encryptedEcdhPrivateKey).toBe(keys[0]);
  });

  it("a wrong current password, a refused step or a failure inside the transaction leaves the old password and every session working", async () => {
    const [laptop, account] = await signUp();
    const { page: phone } = await signIn(account.email, account.loginSecret);
    let signIns = 0; // each check signs in once more: one more session
    const stillWorking = async () => {
      await phone.api("/api/unread");
      expect(await sessionsOf(laptop)).toHaveLength(2 + signIns++);
      const { user } = await signIn(account.email, account.loginSecret);
      return user.encryptedEcdhPrivateKey;
    };
    const keysBefore = await stillWorking();

    expect(await refusal(change(laptop, randomSecret(), randomSecret()))).toEqual([400, "Current password is incorrect."]);
    expect(await refusal(change(laptop, account.loginSecret, account.loginSecret))).toEqual([
      400,
      "The new password must be different from the current one.",
    ]);
    expect(await stillWorking()).toBe(keysBefore);

    // The save inside the transaction fails (the superuser narrows a field for a moment): nothing is kept.
    const admin = await superuserClient(stack.pb.url, stack.pb.superuser);
    const users = await admin.collections.getOne("users");
    const field = users.fields.find((f: { name: string }) => f.name === "encrypted_rsa_private_key")!;
    field.max = 100;
    await admin.collections.update("users", { fields: users.fields });
    try {
      const [status, message] = await refusal(change(laptop, account.loginSecret, randomSecret()));
      expect(status).toBe(400);
      expect(message).toMatch(/^Invalid encrypted_rsa_private_key/);
    } finally {
      field.max = 8000;
      await admin.collections.update("users", { fields: users.fields });
    }
    expect(await stillWorking()).toBe(keysBefore);
  });

  it("counts wrong current passwords like failed sign-ins", async () => {
    const [laptop, account] = await signUp();
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) answers.push((await refusal(change(laptop, randomSecret(), randomSecret())))[0]);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(400));
    const [status, message] = await refusal(change(laptop, account.loginSecret, randomSecret()));
    expect(status).toBe(429);
    expect(message).toMatch(/^Too many attempts for this account; try again in \d+ minutes?\.$/);
  });

  it("refuses bad input and callers without a session with clear 4xx answers, before PocketBase", async () => {
    const [laptop, account] = await signUp();
    const valid = {
      currentLoginSecret: account.loginSecret,
      loginSecret: randomSecret(),
      encryptedEcdhPrivateKey: fakeWrappedKey(),
      encryptedRsaPrivateKey: fakeWrappedKey(),
      kdfIterations: 600_000,
    };
    for (const wrong of [
      { currentLoginSecret: "my password" },
      { loginSecret: "" },
      { encryptedEcdhPrivateKey: "x" },
      { kdfIterations: 5 },
      { kdfIterations: "600000" },
    ]) {
      const [status, message] = await refusal(laptop.api("/api/auth/password", { ...valid, ...wrong }));
      expect(status, JSON.stringify(wrong)).toBe(400);
      expect(message.length).toBeGreaterThan(3);
    }
    const anonymous = new WebClient(stack.web.url);
    await anonymous.loadPage();
    expect((await refusal(anonymous.api("/api/auth/password", valid)))[0]).toBe(401);
    // PocketBase's step directly: only for a signed-in user, and only with well-formed secrets and keys
    const direct = client(stack.pb.url);
    await expect(direct.send("/api/chat/password", { method: "POST", body: {} })).rejects.toMatchObject({ status: 401 });
    direct.authStore.save(laptop.pocketBaseToken(), null);
    const bad = {
      current: account.loginSecret,
      password: randomSecret(),
      encrypted_ecdh_private_key: "plain",
      encrypted_rsa_private_key: fakeWrappedKey(),
      kdf_iterations: 600_000,
    };
    await expect(direct.send("/api/chat/password", { method: "POST", body: bad })).rejects.toMatchObject({ status: 400 });
    // and nothing changed
    await signIn(account.email, account.loginSecret);
  });
});
