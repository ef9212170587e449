import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { openPage } from "./open-page";
import PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  fakeCiphertext,
  fakePublicKey,
  joinChannel,
  signUpUser,
  startPocketBase,
  statusOf,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";
import { startPushService } from "./push-service";
import { changePassword } from "./audit-stack";

// Web Push from our PocketBase (pocketbase/push*.go) to a push service stand-in on loopback that
// checks VAPID and decrypts the RFC 8291 payload like a real one.
let pb: RunningPocketBase;
let service: Awaited<ReturnType<typeof startPushService>>;
let alice: TestUser;
let bob: TestUser;
let channel: TestChannel;

beforeAll(async () => {
  service = await startPushService();
  pb = await startPocketBase({ env: { PUSH_ALLOW_HOSTS: service.host } });
  [alice, bob] = await Promise.all([signUpUser(pb.url), signUpUser(pb.url)]);
  channel = await createChannel(alice);
  expect((await joinChannel(bob, channel)).status).toBe(200);
});

afterAll(async () => {
  await pb?.stop();
  await service?.stop();
});

async function subscribe(user: TestUser) {
  const sub = service.subscribe();
  await user.pb.collection("push_subscriptions").create({ owner: user.id, endpoint: sub.endpoint, ...sub.keys, device: "Test browser" });
  return sub;
}

const send = (from: TestUser, channelId: string, extra: Record<string, unknown> = {}) =>
  from.pb.collection("messages").create({
    channel: channelId,
    sender: from.id,
    encrypted_content: fakeCiphertext(200),
    sender_public_key: fakePublicKey(),
    ...extra,
  });

async function setRules(user: TestUser, rules: unknown) {
  const existing = await user.pb.collection("notify_rules").getFullList();
  if (existing[0]) await user.pb.collection("notify_rules").update(existing[0].id, { rules });
  else await user.pb.collection("notify_rules").create({ owner: user.id, rules });
}

/** A user of their own with one subscription, in a new channel of Alice's: a push that must arrive, sent after the ones that must not. */
async function sentinel() {
  const carol = await signUpUser(pb.url);
  const room = await createChannel(alice);
  await joinChannel(carol, room);
  const sub = await subscribe(carol);
  await send(alice, room.id, { mentions: [carol.id] });
  await expect.poll(() => service.pushesFor(sub.id).length, { timeout: 10_000 }).toBe(1);
}

describe("Web Push", () => {
  it("pushes a mention to a member with no open page: VAPID-signed, RFC 8291-encrypted, the ciphertext only", async () => {
    const sub = await subscribe(bob);
    const plain = await send(alice, channel.id);
    const mention = await send(alice, channel.id, { mentions: [bob.id] });
    await expect.poll(() => service.pushesFor(sub.id).length, { timeout: 10_000 }).toBe(1);
    const [push] = service.pushesFor(sub.id);
    const payload = JSON.parse(push.payload) as Record<string, unknown>;
    expect(payload).toMatchObject({
      v: 1,
      c: channel.id,
      n: channel.name,
      m: mention.id,
      s: alice.id,
      u: alice.username,
      e: mention.encrypted_content,
    });
    expect(payload.m).not.toBe(plain.id);
    expect(push.urgency).toBe("high");
    expect(push.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(push.ttl).toBeGreaterThan(0);
    expect(service.refused).toEqual([]);
    // the key the pushes are signed with is the one browsers subscribe with, kept in the data directory
    const { publicKey } = (await (await fetch(`${pb.url}/api/chat/push/key`)).json()) as { publicKey: string };
    expect(push.vapidKey).toBe(publicKey);
    const file = path.join(pb.dataDir, "push_vapid.json");
    expect(JSON.parse(readFileSync(file, "utf8")).publicKey).toBe(publicKey);
    expect(statSync(file).mode & 0o077).toBe(0);
    await bob.pb.collection("push_subscriptions").delete((await bob.pb.collection("push_subscriptions").getFullList())[0].id);
  });

  it("follows the rules: at most one push per conversation every few seconds with All, none when muted or Nothing", async () => {
    const dave = await signUpUser(pb.url);
    const rooms = await Promise.all([createChannel(alice), createChannel(alice), createChannel(alice)]);
    for (const room of rooms) await joinChannel(dave, room);
    const sub = await subscribe(dave);
    const [all, muted, nothing] = rooms.map((r) => r.id);
    await setRules(dave, {
      conversations: {
        [all]: { level: "all" },
        [muted]: { level: "all", mutedUntil: Date.now() + 3_600_000 },
        [nothing]: { level: "nothing" },
      },
    });
    for (let i = 0; i < 3; i++) await send(alice, all);
    await send(alice, muted, { mentions: [dave.id] });
    await send(alice, nothing, { mentions: [dave.id] });
    await sentinel();
    const pushes = service.pushesFor(sub.id).map((p) => JSON.parse(p.payload) as { c: string });
    expect(pushes.map((p) => p.c)).toEqual([all]);
  });

  it("sends nothing to a member whose page is open", async () => {
    const erin = await signUpUser(pb.url);
    await joinChannel(erin, channel);
    const sub = await subscribe(erin);
    const close = await openPage(pb.url, erin.token);
    await send(alice, channel.id, { mentions: [erin.id] });
    await sentinel();
    expect(service.pushesFor(sub.id)).toEqual([]);
    close();
  });

  it("drops a subscription its push service says is gone", async () => {
    const frank = await signUpUser(pb.url);
    await joinChannel(frank, channel);
    const sub = await subscribe(frank);
    service.expire(sub.id);
    await send(alice, channel.id, { mentions: [frank.id] });
    await expect.poll(async () => (await frank.pb.collection("push_subscriptions").getFullList()).length, { timeout: 10_000 }).toBe(0);
  });

  it("refuses endpoints that are not a push service's https address, others' subscriptions and bad mentions", async () => {
    const keys = service.subscribe().keys;
    for (const endpoint of [
      "http://example.com/push/x",
      "https://127.0.0.1/push/x",
      "https://10.0.0.1/x",
      "ftp://example.com/x",
      "not a url",
    ]) {
      expect(await statusOf(bob.pb.collection("push_subscriptions").create({ owner: bob.id, endpoint, ...keys })), endpoint).toBe(400);
    }
    // someone else's: neither created for them nor listed
    expect(
      await statusOf(bob.pb.collection("push_subscriptions").create({ owner: alice.id, endpoint: service.subscribe().endpoint, ...keys })),
    ).toBe(400);
    const alices = await subscribe(alice);
    expect((await bob.pb.collection("push_subscriptions").getFullList()).map((s) => s.endpoint)).not.toContain(alices.endpoint);
    expect(await bob.pb.collection("notify_rules").getFullList({ filter: `owner = "${alice.id}"` })).toEqual([]);
    const tooMany = Array.from({ length: 51 }, () => bob.id);
    for (const mentions of [tooMany, "everyone", [1, 2], ["../../x"], { a: 1 }]) {
      expect(await statusOf(send(alice, channel.id, { mentions })), JSON.stringify(mentions).slice(0, 40)).toBe(400);
    }
  });

  it("a subscription goes with the session that saved it: signed out from another device, or by a password change there, its pushes stop", async () => {
    const gina = await signUpUser(pb.url);
    await joinChannel(gina, channel);
    /** Her laptop: a session of its own that turns pushes on (naming another session: PocketBase sets its own). */
    const laptopSubscribes = async () => {
      const laptop = new PocketBase(pb.url);
      await laptop.collection("users").authWithPassword(gina.email, gina.password);
      const sub = service.subscribe();
      const saved = await laptop
        .collection("push_subscriptions")
        .create({ owner: gina.id, endpoint: sub.endpoint, ...sub.keys, device: "Laptop", session: "forgedsession01" });
      const { sessions } = await laptop.send<{ sessions: { id: string; current: boolean }[] }>("/api/chat/sessions", {});
      const session = sessions.find((s) => s.current)!.id;
      expect(saved.session).toBe(session);
      return { sub, session };
    };
    const subscriptions = () => gina.pb.collection("push_subscriptions").getFullList();

    // Signed out from her phone (the session she signed up with): the laptop's subscription goes with it.
    const first = await laptopSubscribes();
    expect(await subscriptions()).toHaveLength(1);
    await gina.pb.send(`/api/chat/sessions/${first.session}/revoke`, { method: "POST" });
    expect(await subscriptions()).toEqual([]);
    await send(alice, channel.id, { mentions: [gina.id] });
    await sentinel();
    expect(service.pushesFor(first.sub.id)).toEqual([]);

    // A password change on the phone ends every other session, and their subscriptions.
    const second = await laptopSubscribes();
    expect(await subscriptions()).toHaveLength(1);
    await changePassword(pb.url, gina, gina.token);
    expect(await subscriptions()).toEqual([]);
    await send(alice, channel.id, { mentions: [gina.id] });
    await sentinel();
    expect(service.pushesFor(second.sub.id)).toEqual([]);
  });
});
