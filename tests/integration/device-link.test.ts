// New devices approved from a signed-in one (docs/decisions/0059-device-approval.md), against our real
// PocketBase: the whole exchange with the browser's own crypto, as an attacker (another account, a
// wrong secret, garbage, replays), the same answer for an unknown account, limits, and no key in
// clear anywhere in the data directory.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  exportKeyBundle,
  generateKeyBundle,
  linkCode,
  newLinkKeyPair,
  openFromDevice,
  sealForDevice,
  type StoredKeyBundle,
} from "~/crypto";
import { filesContaining } from "../e2e/fixtures";
import { AGENT, pbCaller } from "./device-link-calls";
import { post, signUpUser, startPocketBase, superuserClient, type RunningPocketBase, type TestUser } from "./pocketbase";

let pb: RunningPocketBase;
beforeAll(async () => {
  pb = await startPocketBase();
}, 240_000);
afterAll(async () => {
  await pb?.stop();
});
const call: ReturnType<typeof pbCaller> = (...args) => pbCaller(pb.url)(...args);

/** An account whose public keys are real, and its stored key bundle (what loadLocalKeys holds). */
async function realAccount(): Promise<{ user: TestUser; keys: StoredKeyBundle }> {
  const keys = await exportKeyBundle(await generateKeyBundle());
  const user = await signUpUser(pb.url, { ecdh_public_key: keys.ecdhPublicKey, rsa_public_key: keys.rsaPublicKey });
  return { user, keys };
}

async function start(identity: string | undefined, token?: string) {
  const device = await newLinkKeyPair();
  const answer = await call(
    "POST",
    "/api/chat/device-links",
    identity === undefined ? { device_key: device.publicKey } : { identity, device_key: device.publicKey },
    token,
  );
  return { device, answer, id: String(answer.json.id), secret: String(answer.json.secret) };
}

const poll = (id: string, secret: string, token?: string) => call("POST", "/api/chat/device-links/poll", { id, secret }, token);

describe("device links", () => {
  it("an approval hands the sealed keys and a session to the new device once; the codes of both devices match", async () => {
    const { user: bob, keys } = await realAccount();
    const { device, answer, id, secret } = await start(bob.username);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json).sort()).toEqual(["expires", "id", "secret"]);

    // Bob's signed-in device sees it, with the new device's browser; nobody else does
    const listed = await call("GET", "/api/chat/device-links", undefined, bob.token);
    expect(listed.json.requests).toEqual([expect.objectContaining({ id, device_key: device.publicKey, approver_key: "", agent: AGENT })]);
    const mallory = await signUpUser(pb.url);
    expect((await call("GET", "/api/chat/device-links", undefined, mallory.token)).json.requests).toEqual([]);
    expect((await call("GET", "/api/chat/device-links")).status).toBe(401);

    // another account can neither take, approve nor deny it
    const approver = await newLinkKeyPair();
    for (const op of ["claim", "approve", "deny"]) {
      const refused = await call(
        "POST",
        `/api/chat/device-links/${id}/${op}`,
        { approver_key: approver.publicKey, sealed: "A".repeat(100) },
        mallory.token,
      );
      expect(refused.status, op).toBe(404);
    }
    // the new device waits: pending, no approving key yet; a wrong secret learns nothing
    expect((await poll(id, secret)).json).toEqual({ state: "pending", approver_key: "" });
    expect((await poll(id, "x".repeat(43))).status).toBe(404);
    expect((await poll(id, "x".repeat(43))).json).not.toHaveProperty("state");

    // Bob's device answers: its key reaches the new device, and both compute the same code
    const claimed = await call("POST", `/api/chat/device-links/${id}/claim`, { approver_key: approver.publicKey }, bob.token);
    expect(claimed.status).toBe(200);
    const other = await newLinkKeyPair();
    expect((await call("POST", `/api/chat/device-links/${id}/claim`, { approver_key: other.publicKey }, bob.token)).status).toBe(409);
    const waiting = await poll(id, secret);
    expect(waiting.json).toEqual({ state: "pending", approver_key: approver.publicKey });
    expect(await linkCode(id, device.publicKey, approver.publicKey)).toMatch(/^\d{3} \d{3}$/);
    // a server that swapped the new device's key shows Bob another code
    expect(await linkCode(id, other.publicKey, approver.publicKey)).not.toBe(await linkCode(id, device.publicKey, approver.publicKey));

    const sealed = await sealForDevice(keys, approver, { id, deviceKey: device.publicKey });
    expect((await call("POST", `/api/chat/device-links/${id}/approve`, { approver_key: other.publicKey, sealed }, bob.token)).status).toBe(
      409,
    );
    expect(
      (await call("POST", `/api/chat/device-links/${id}/approve`, { approver_key: approver.publicKey, sealed }, bob.token)).status,
    ).toBe(200);
    // answered: no longer pending, not again
    expect((await call("GET", "/api/chat/device-links", undefined, bob.token)).json.requests).toEqual([]);
    expect((await call("POST", `/api/chat/device-links/${id}/deny`, {}, bob.token)).status).toBe(404);

    const approved = await poll(id, secret);
    expect(approved.status).toBe(200);
    const meta = approved.json.meta as { state: string; sealed: string; approver_key: string };
    expect(meta.state).toBe("approved");
    expect((approved.json.record as { id: string }).id).toBe(bob.id);
    const token = String(approved.json.token);
    expect((await call("GET", "/api/chat/session", undefined, token)).status).toBe(200);
    const opened = await openFromDevice(
      meta.sealed,
      device,
      { id, approverKey: meta.approver_key },
      { ecdh: keys.ecdhPublicKey, rsa: keys.rsaPublicKey },
    );
    expect(opened.ecdhPrivateKey.d).toBe(keys.ecdhPrivateKey.d);
    expect(opened.rsaPrivateKey.d).toBe(keys.rsaPrivateKey.d);
    // with another request's id or another device's key, it does not open
    await expect(
      openFromDevice(meta.sealed, other, { id, approverKey: meta.approver_key }, { ecdh: keys.ecdhPublicKey, rsa: keys.rsaPublicKey }),
    ).rejects.toThrow(/openFromDevice/);

    // spent: a replay gets nothing
    expect((await poll(id, secret)).status).toBe(404);

    // a device like any other: its session listed with its browser, the approval in the audit log
    const sessions = await call("GET", "/api/chat/sessions", undefined, token);
    expect(JSON.stringify(sessions.json)).toContain(AGENT);
    const admin = await superuserClient(pb.url, pb.superuser);
    const audit = await admin.collection("audit_log").getFullList({ filter: `action = "device.approved" && target = "${bob.id}"` });
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toEqual({ device: AGENT, purpose: "signin" });

    // the server kept no key in clear: neither private key's secret anywhere in its data directory
    for (const secretPart of [keys.ecdhPrivateKey.d!, keys.rsaPrivateKey.d!, keys.rsaPrivateKey.p!]) {
      expect(filesContaining([pb.dataDir], secretPart)).toEqual([]);
    }
  });

  it("a denied request says so once, and signs nobody in", async () => {
    const { user: bob } = await realAccount();
    const { id, secret } = await start(bob.email);
    expect((await call("POST", `/api/chat/device-links/${id}/deny`, {}, bob.token)).status).toBe(200);
    const denied = await poll(id, secret);
    expect(denied.json).toEqual({ state: "denied" });
    expect(denied.json).not.toHaveProperty("token");
    expect((await poll(id, secret)).status).toBe(404);
  });

  it("an expired request cannot be answered, and is polled once", async () => {
    const { user: bob } = await realAccount();
    const { id, secret } = await start(bob.username.toUpperCase());
    const admin = await superuserClient(pb.url, pb.superuser);
    await admin.collection("device_links").update(id, { expires: "2020-01-01 00:00:00.000Z" });
    expect((await call("GET", "/api/chat/device-links", undefined, bob.token)).json.requests).toEqual([]);
    const approver = await newLinkKeyPair();
    expect((await call("POST", `/api/chat/device-links/${id}/claim`, { approver_key: approver.publicKey }, bob.token)).status).toBe(404);
    expect((await poll(id, secret)).json).toEqual({ state: "expired" });
    expect((await poll(id, secret)).status).toBe(404);
  });

  it("an unknown username or email gets the same answer as an account, and a request that stays pending", async () => {
    const { user: bob } = await realAccount();
    const known = await start(bob.username);
    for (const identity of ["nobody_here_at_all", "nobody@example.test"]) {
      const unknown = await start(identity);
      expect(unknown.answer.status).toBe(known.answer.status);
      expect(Object.keys(unknown.answer.json).sort()).toEqual(Object.keys(known.answer.json).sort());
      expect(unknown.secret).toMatch(/^[A-Za-z0-9]{43}$/);
      expect((await poll(unknown.id, unknown.secret)).json).toEqual({ state: "pending", approver_key: "" });
    }
  });

  it("a deactivated account is refused as at a password sign-in, even when approved", async () => {
    const { user: bob, keys } = await realAccount();
    const { device, id, secret } = await start(bob.username);
    const approver = await newLinkKeyPair();
    await call("POST", `/api/chat/device-links/${id}/claim`, { approver_key: approver.publicKey }, bob.token);
    const sealed = await sealForDevice(keys, approver, { id, deviceKey: device.publicKey });
    expect(
      (await call("POST", `/api/chat/device-links/${id}/approve`, { approver_key: approver.publicKey, sealed }, bob.token)).status,
    ).toBe(200);
    const admin = await superuserClient(pb.url, pb.superuser);
    await admin.collection("profiles").update(bob.id, { deactivated: true });
    const refused = await poll(id, secret);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe("This account was deactivated by an administrator.");
    expect(refused.json).not.toHaveProperty("token");
    expect((await poll(id, secret)).status).toBe(404);
  });

  it("a signed-in device asks for the keys only: no new session, and only that account's page receives them", async () => {
    const { user: bob, keys } = await realAccount();
    const { device, answer, id, secret } = await start(undefined, bob.token);
    expect(answer.status).toBe(200);
    const approver = await newLinkKeyPair();
    await call("POST", `/api/chat/device-links/${id}/claim`, { approver_key: approver.publicKey }, bob.token);
    const sealed = await sealForDevice(keys, approver, { id, deviceKey: device.publicKey });
    await call("POST", `/api/chat/device-links/${id}/approve`, { approver_key: approver.publicKey, sealed }, bob.token);
    const mallory = await signUpUser(pb.url);
    expect((await poll(id, secret)).status).toBe(404);
    expect((await poll(id, secret, mallory.token)).status).toBe(404);
    const approved = await poll(id, secret, bob.token);
    expect(approved.json).toEqual({ state: "approved", sealed, approver_key: approver.publicKey });
    expect((await poll(id, secret, bob.token)).status).toBe(404);
  });

  it("the new device can cancel; hostile input gets a clear 4xx", async () => {
    const { user: bob } = await realAccount();
    const { id, secret } = await start(bob.username);
    expect((await call("POST", "/api/chat/device-links/cancel", { id, secret: "y".repeat(43) })).status).toBe(404);
    expect((await call("POST", "/api/chat/device-links/cancel", { id, secret })).status).toBe(204);
    expect((await poll(id, secret)).status).toBe(404);

    const device = await newLinkKeyPair();
    const cases: [string, string, unknown, string | undefined, number][] = [
      ["POST", "/api/chat/device-links", { identity: bob.username }, undefined, 400],
      ["POST", "/api/chat/device-links", { identity: bob.username, device_key: "not a key" }, undefined, 400],
      ["POST", "/api/chat/device-links", { identity: "", device_key: device.publicKey }, undefined, 400],
      ["POST", "/api/chat/device-links", { identity: "x".repeat(300), device_key: device.publicKey }, undefined, 400],
      ["POST", "/api/chat/device-links", { identity: ["a"], device_key: device.publicKey }, undefined, 400],
      ["POST", "/api/chat/device-links", [1, 2], undefined, 400],
      ["PUT", "/api/chat/device-links", {}, undefined, 404],
      ["DELETE", "/api/chat/device-links", undefined, bob.token, 404],
      ["GET", "/api/chat/device-links/poll", undefined, undefined, 404],
      ["POST", "/api/chat/device-links/poll", { id: "../../etc", secret: "x" }, undefined, 400],
      ["POST", "/api/chat/device-links/poll", { id: "abcdefghijklmno", secret: "x".repeat(43) }, undefined, 404],
      ["POST", "/api/chat/device-links/poll", "null", undefined, 400],
      ["POST", "/api/chat/device-links/abcdefghijklmno/claim", { approver_key: device.publicKey }, undefined, 401],
      ["POST", "/api/chat/device-links/abcdefghijklmno/claim", { approver_key: device.publicKey }, bob.token, 404],
      ["POST", "/api/chat/device-links/ABC'--/claim", { approver_key: device.publicKey }, bob.token, 404],
      ["POST", "/api/chat/device-links/abcdefghijklmno/explode", {}, bob.token, 404],
    ];
    for (const [method, route, body, token, status] of cases) {
      const answer = await call(method, route, body, token);
      expect(answer.status, `${method} ${route} ${JSON.stringify(body)}`).toBe(status);
    }
    // approving garbage: refused, the request still pending
    const live = await start(bob.username);
    const approver = await newLinkKeyPair();
    await call("POST", `/api/chat/device-links/${live.id}/claim`, { approver_key: approver.publicKey }, bob.token);
    for (const sealed of ["", "!!!", "A".repeat(30_000), 42]) {
      const refused = await call(
        "POST",
        `/api/chat/device-links/${live.id}/approve`,
        { approver_key: approver.publicKey, sealed },
        bob.token,
      );
      expect(refused.status).toBe(400);
    }
    expect((await poll(live.id, live.secret)).json.state).toBe("pending");
    // oversize bodies and not-JSON
    const big = await post(pb.url, "/api/chat/device-links", JSON.stringify({ identity: "x", device_key: "A".repeat(10_000) }));
    expect(big.status).toBe(413);
    const notJson = await post(pb.url, "/api/chat/device-links/poll", "id=1", { contentType: "text/plain" });
    expect(notJson.status).toBe(400);
  });

  it("starting is limited per account name and per client address", async () => {
    const { user: bob } = await realAccount();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await start(bob.username)).answer.status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    // an unknown name meets the same limit (nothing tells the two apart)
    const unknown: number[] = [];
    for (let i = 0; i < 11; i++) unknown.push((await start("nobody_limit_test")).answer.status);
    expect(unknown).toEqual(statuses);

    const admin = await superuserClient(pb.url, pb.superuser);
    await admin.settings.update({ rateLimits: { excludedIPs: [] } });
    try {
      const device = await newLinkKeyPair();
      const from = async (ip: string, n: number) =>
        (
          await call("POST", "/api/chat/device-links", { identity: `someone_${ip}_${n}`, device_key: device.publicKey }, undefined, {
            "X-Forwarded-For": ip,
          })
        ).status;
      const first: number[] = [];
      for (let i = 0; i < 6; i++) first.push(await from("203.0.113.21", i));
      expect(first).toEqual([200, 200, 200, 200, 200, 429]);
      expect(await from("203.0.113.22", 0)).toBe(200);
    } finally {
      await admin.settings.update({ rateLimits: { excludedIPs: ["127.0.0.1"] } });
    }
  });
});
