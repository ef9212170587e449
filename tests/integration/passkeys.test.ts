// Passkeys through the real stack (server.mjs on the built app, our PocketBase), with a software
// authenticator: adding one, signing in with it (the same session as a password sign-in), each challenge
// used once, the checks PocketBase makes itself, and nobody else's passkeys in sight.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../ports";
import type { WebServer } from "../e2e/stack";
import { client, startPocketBase, type RunningPocketBase } from "./pocketbase";
import { TestAuthenticator, UP } from "./passkey-authenticator";
import { startWebServer } from "./web-session";
import { Visitor, type Answer } from "./web";

let pb: RunningPocketBase;
let web: WebServer;
let origin: string;

beforeAll(async () => {
  pb = await startPocketBase();
  const port = await freePort();
  // WebAuthn needs a domain name: the web app's address is localhost (APP_URL), whatever Host a request names.
  origin = `http://localhost:${port}`;
  web = await startWebServer(pb.url, { port, env: { APP_URL: origin } });
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

const message = (answer: Answer) => (answer.json as { message?: string } | undefined)?.message;

async function signedUp() {
  const visitor = new Visitor(web.url);
  const account = await visitor.signUp();
  return { visitor, account };
}

/** Adds a passkey to the visitor's account through the web app; answers the listing and the authenticator. */
async function addPasskey(visitor: Visitor, extra: Record<string, string> = {}) {
  const authenticator = new TestAuthenticator(origin);
  const options = await visitor.post("/api/passkeys/options", {});
  expect(options.status, options.text).toBe(200);
  const response = authenticator.register((options.json as { options: Parameters<TestAuthenticator["register"]>[0] }).options);
  const added = await visitor.post("/api/passkeys", {
    response,
    name: "Test key",
    wrappedEcdhPrivateKey: "",
    wrappedRsaPrivateKey: "",
    ...extra,
  });
  return { authenticator, added, response };
}

async function signInOptions(visitor: Visitor) {
  const answer = await visitor.post("/api/auth/passkey/options", {});
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { options: { challenge: string; rpId: string } }).options;
}

async function newVisitor() {
  const visitor = new Visitor(web.url);
  await visitor.visit();
  return visitor;
}

describe("passkeys", () => {
  it("one added in Account signs in: the same session as a password sign-in, with its wrapped keys", async () => {
    const { visitor: alice, account } = await signedUp();
    const wrapped = {
      wrappedEcdhPrivateKey: `v1.${"a".repeat(16)}.${"b".repeat(200)}`,
      wrappedRsaPrivateKey: `v1.${"c".repeat(16)}.${"d".repeat(900)}`,
    };
    const { authenticator, added } = await addPasskey(alice, wrapped);
    expect(added.status, added.text).toBe(200);
    expect(added.json).toMatchObject({ passkey: { name: "Test key", lastUsed: "", unlocks: true } });
    expect(((await alice.send({ path: "/api/passkeys" })).json as { passkeys: unknown[] }).passkeys).toHaveLength(1);

    const device = await newVisitor();
    const options = await signInOptions(device);
    expect(options.rpId).toBe("localhost");
    const signedIn = await device.post("/api/auth/passkey/signin", { response: authenticator.signIn(options) });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.json).toMatchObject({
      user: { id: alice.userId, email: account.email },
      unlock: { credentialId: authenticator.id, ...wrapped },
    });
    // the session works like any other, and signs out like any other
    expect((await device.send({ path: "/api/channels" })).status).toBe(200);
    const listed = ((await device.send({ path: "/api/passkeys" })).json as { passkeys: { lastUsed: string }[] }).passkeys;
    expect(listed[0].lastUsed).not.toBe("");
    expect((await device.post("/api/auth/signout", {})).status).toBe(200);
    expect((await device.send({ path: "/api/channels" })).status).toBe(401);
  });

  it("a challenge signs in once: a replayed answer is refused, and so is a stale or made-up one", async () => {
    const { visitor: alice } = await signedUp();
    const { authenticator } = await addPasskey(alice);
    const device = await newVisitor();
    const body = { response: authenticator.signIn(await signInOptions(device)) };
    expect((await device.post("/api/auth/passkey/signin", body)).status).toBe(200);
    const replayed = await (await newVisitor()).post("/api/auth/passkey/signin", body);
    expect(replayed.status).toBe(400);
    expect(message(replayed)).toBe("This passkey sign-in has expired or was already used. Try again.");
    // a challenge the server never issued, signed correctly
    const madeUp = authenticator.signIn({ challenge: Buffer.alloc(32, 7).toString("base64url"), rpId: "localhost" });
    expect((await device.post("/api/auth/passkey/signin", { response: madeUp })).status).toBe(400);
    // a registration is used once too
    const { response } = await addPasskey(alice);
    const again = await alice.post("/api/passkeys", { response, name: "Again", wrappedEcdhPrivateKey: "", wrappedRsaPrivateKey: "" });
    expect(again.status).toBe(400);
    expect(message(again)).toBe("This request to add a passkey has expired. Try again.");
  });

  it("PocketBase checks each sign-in itself: origin, user verification, counter, known passkey", async () => {
    const { visitor: alice } = await signedUp();
    const { authenticator } = await addPasskey(alice);
    const attempt = async (options: Parameters<TestAuthenticator["signIn"]>[1]) => {
      const device = await newVisitor();
      const answer = await device.post("/api/auth/passkey/signin", {
        response: authenticator.signIn(await signInOptions(device), options),
      });
      return [answer.status, message(answer)];
    };
    expect(await attempt({ origin: "http://evil.localhost" })).toEqual([401, "The passkey answered for another site."]);
    expect(await attempt({ rpId: "example.com" })).toEqual([401, "The passkey answered for another site."]);
    expect(await attempt({ flags: UP })).toEqual([401, "The passkey did not verify you (screen lock, PIN or fingerprint). Try again."]);
    expect(await attempt({ counter: 10 })).toEqual([200, undefined]);
    expect(await attempt({ counter: 10 })).toEqual([
      401,
      "This passkey's signature counter went backwards: it may have been copied. Sign in with your password.",
    ]);
    const stranger = new TestAuthenticator(origin);
    stranger.userHandle = authenticator.userHandle;
    const device = await newVisitor();
    const unknown = await device.post("/api/auth/passkey/signin", {
      response: stranger.signIn(await signInOptions(device), { rpId: "localhost" }),
    });
    expect([unknown.status, message(unknown)]).toEqual([
      401,
      "This passkey is not registered here. Sign in with your password, then add it again under Account.",
    ]);
  });

  it("another user's passkeys are invisible: not listed, not removable, not reachable in PocketBase", async () => {
    const { visitor: alice, account: aliceAccount } = await signedUp();
    const { visitor: bob, account: bobAccount } = await signedUp();
    const { added } = await addPasskey(alice);
    const passkeyId = (added.json as { passkey: { id: string } }).passkey.id;

    expect(((await bob.send({ path: "/api/passkeys" })).json as { passkeys: unknown[] }).passkeys).toEqual([]);
    const removed = await bob.post(`/api/passkeys/${passkeyId}/delete`, {});
    expect([removed.status, message(removed)]).toEqual([404, "Passkey not found."]);

    const asBob = client(pb.url);
    await asBob.collection("users").authWithPassword(bobAccount.email, bobAccount.loginSecret);
    expect((await asBob.collection("passkeys").getList(1, 50)).totalItems).toBe(0);
    await expect(asBob.collection("passkeys").getOne(passkeyId)).rejects.toMatchObject({ status: 404 });
    // nobody writes passkeys past pocketbase/passkeys.go, not even their owner
    const asAlice = client(pb.url);
    await asAlice.collection("users").authWithPassword(aliceAccount.email, aliceAccount.loginSecret);
    await expect(asAlice.collection("passkeys").update(passkeyId, { counter: 0 })).rejects.toMatchObject({ status: 403 });
    await expect(
      asAlice
        .collection("passkeys")
        .create({ user: alice.userId, credential_id: "x".repeat(43), public_key: "eA", algorithm: -7, name: "n", rp_id: "localhost" }),
    ).rejects.toMatchObject({ status: 403 });
    expect((await alice.post(`/api/passkeys/${passkeyId}/delete`, {})).status).toBe(200);
    expect(((await alice.send({ path: "/api/passkeys" })).json as { passkeys: unknown[] }).passkeys).toEqual([]);
  });

  it("a challenge issued to one user adds no passkey to another", async () => {
    const { visitor: alice } = await signedUp();
    const { visitor: bob } = await signedUp();
    const options = ((await alice.post("/api/passkeys/options", {})).json as { options: Parameters<TestAuthenticator["register"]>[0] })
      .options;
    const response = new TestAuthenticator(origin).register(options);
    const added = await bob.post("/api/passkeys", { response, name: "Stolen", wrappedEcdhPrivateKey: "", wrappedRsaPrivateKey: "" });
    expect([added.status, message(added)]).toEqual([400, "This request to add a passkey has expired. Try again."]);
  });

  it("bad input gets a clear 4xx: another site, extension results, malformed answers, signed out", async () => {
    const { visitor: alice } = await signedUp();
    const options = ((await alice.post("/api/passkeys/options", {})).json as { options: Parameters<TestAuthenticator["register"]>[0] })
      .options;
    const elsewhere = new TestAuthenticator("http://localhost:1").register(options);
    const refused = await alice.post("/api/passkeys", {
      response: elsewhere,
      name: "x",
      wrappedEcdhPrivateKey: "",
      wrappedRsaPrivateKey: "",
    });
    expect([refused.status, message(refused)]).toEqual([400, "The passkey could not be verified. Try again."]);

    // an answer that carries its extension results (a PRF output) is refused before anything reads it
    const { response } = await addPasskey(alice);
    const withPrf = { ...response, clientExtensionResults: { prf: { results: { first: "AAAA" } } } };
    const leaked = await alice.post("/api/passkeys", { response: withPrf, name: "x", wrappedEcdhPrivateKey: "", wrappedRsaPrivateKey: "" });
    expect(leaked.status).toBe(400);

    const device = await newVisitor();
    for (const body of [{}, { response: {} }, { response: "x" }, { response: { id: "!", rawId: "!", type: "public-key" } }]) {
      const answer = await device.post("/api/auth/passkey/signin", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(message(answer)).toBeTruthy();
    }
    expect((await device.post("/api/passkeys/options", {})).status).toBe(401);
    expect((await device.post("/api/passkeys", { response, name: "x", wrappedEcdhPrivateKey: "", wrappedRsaPrivateKey: "" })).status).toBe(
      401,
    );
    expect((await device.send({ path: "/api/passkeys" })).status).toBe(401);
    expect((await alice.post("/api/passkeys/abc/delete", {})).status).toBe(400);

    // PocketBase's own routes, directly
    const direct = (path: string, body: unknown) =>
      fetch(`${pb.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    expect((await direct("/api/chat/passkeys/challenge", { purpose: "register" })).status).toBe(401);
    expect((await direct("/api/chat/passkeys/challenge", { purpose: "other" })).status).toBe(400);
    expect((await direct("/api/chat/passkeys", {})).status).toBe(401);
    expect((await direct("/api/chat/passkeys/signin", { credential_id: "x" })).status).toBe(400);
  });

  it("an address that is an IP is told passkeys need a domain name", async () => {
    const direct = await startWebServer(pb.url);
    try {
      const visitor = new Visitor(direct.url);
      await visitor.visit();
      const answer = await visitor.post("/api/auth/passkey/options", {});
      expect([answer.status, message(answer)]).toEqual([
        409,
        "Passkeys need the web app at a domain name, such as https://chat.example.com or http://localhost:3000, not an IP address.",
      ]);
    } finally {
      await direct.stop();
    }
  });
});
