import { EventSource } from "eventsource";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChannel, joinChannel, postMessage, signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";

// The members-only realtime topic for messages (pocketbase/broadcast.go).
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

let pb: RunningPocketBase;
let alice: TestUser;
let bob: TestUser;
let mallory: TestUser;

beforeAll(async () => {
  pb = await startPocketBase();
  [alice, bob, mallory] = await Promise.all([signUpUser(pb.url), signUpUser(pb.url), signUpUser(pb.url)]);
});

afterAll(async () => {
  for (const u of [alice, bob, mallory]) await u?.pb.realtime.unsubscribe().catch(() => undefined);
  await pb?.stop();
});

const listen = async (user: TestUser) => {
  const events: { action: string; record: { id: string; channel: string; sender: string; encrypted_content: string; created: string } }[] =
    [];
  await user.pb.realtime.subscribe("chatcrypt/messages", (e) => events.push(e));
  return events;
};

describe("chatcrypt/messages realtime topic", () => {
  it("delivers a new message to every member of its channel and to nobody else", async () => {
    const channel = await createChannel(alice);
    expect((await joinChannel(bob, channel)).status).toBe(200);
    const [aliceEvents, bobEvents, malloryEvents] = await Promise.all([listen(alice), listen(bob), listen(mallory)]);

    const message = await postMessage(alice, channel.id, "ciphertext-one");
    await expect.poll(() => bobEvents.length, { timeout: 5_000 }).toBe(1);
    await expect.poll(() => aliceEvents.length, { timeout: 5_000 }).toBe(1);
    expect(bobEvents[0]).toEqual({
      action: "create",
      record: { id: message.id, channel: channel.id, sender: alice.id, encrypted_content: "ciphertext-one", created: message.created },
    });

    // A message in a channel Mallory is not in never reaches her, while one in her own channel does.
    const own = await createChannel(mallory);
    await postMessage(mallory, own.id, "mallory's own");
    await expect.poll(() => malloryEvents.length, { timeout: 5_000 }).toBe(1);
    expect(malloryEvents[0].record.channel).toBe(own.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(malloryEvents.every((e) => e.record.channel === own.id)).toBe(true);
    expect(bobEvents.some((e) => e.record.channel === own.id)).toBe(false);
  });

  it("tells members about deleted messages (clear), without content, and stops after leaving", async () => {
    const channel = await createChannel(alice);
    expect((await joinChannel(bob, channel)).status).toBe(200);
    await postMessage(alice, channel.id, "to be cleared");
    const bobEvents = await listen(bob);
    const cleared = await fetch(`${pb.url}/api/chat/channels/${channel.id}/clear`, {
      method: "POST",
      headers: { Authorization: alice.token },
    });
    expect(cleared.status).toBe(200);
    await expect
      .poll(() => bobEvents.filter((e) => e.action === "delete" && e.record.channel === channel.id).length, { timeout: 5_000 })
      .toBe(1);
    expect(bobEvents.find((e) => e.action === "delete")?.record.encrypted_content).toBe("");

    const membership = await bob.pb
      .collection("channel_members")
      .getFirstListItem(bob.pb.filter("channel = {:c} && user = {:u}", { c: channel.id, u: bob.id }));
    await bob.pb.collection("channel_members").delete(membership.id);
    const before = bobEvents.length;
    await postMessage(alice, channel.id, "after bob left");
    await new Promise((r) => setTimeout(r, 500));
    expect(bobEvents.length).toBe(before);
  });

  it("an unauthenticated realtime client receives nothing", async () => {
    const channel = await createChannel(alice);
    const anonymous = (await import("./pocketbase")).client(pb.url);
    const events: unknown[] = [];
    await anonymous.realtime.subscribe("chatcrypt/messages", (e) => events.push(e));
    await postMessage(alice, channel.id, "secret-ish");
    await new Promise((r) => setTimeout(r, 500));
    expect(events).toEqual([]);
    await anonymous.realtime.unsubscribe();
  });
});
