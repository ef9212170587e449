import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRelay as relayOf } from "./relay-client";
import { createChannel, joinChannel, postJson, signUpUser, startPocketBase, superuserClient, type RunningPocketBase } from "./pocketbase";

// PocketBase's side of the live relay (pocketbase/relay.go): the connection a web process opens and
// the users it registers on it, with no web process in front (relay-streams.test.ts has the streams).
let pb: RunningPocketBase;

beforeAll(async () => {
  pb = await startPocketBase();
});

afterAll(() => pb?.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("PocketBase's relay endpoint", () => {
  const openRelay = () => relayOf(pb.url, ["message", "message-deleted", "memberships", "removed", "attachment", "preview"]);

  it("sends nothing for users nobody registered, and lists only registered members as recipients", async () => {
    const [alice, bob, carol] = await Promise.all([signUpUser(pb.url), signUpUser(pb.url), signUpUser(pb.url)]);
    const relay = await openRelay();
    const res = await postJson(
      pb.url,
      "/api/chat/channels",
      { id: crypto.randomUUID(), name: "relay", verifier: "v".repeat(43), ecdh_public_key: "k".repeat(60), kdf_iterations: 600_000 },
      alice.token,
    );
    const channelId = (res.json as { id: string }).id;
    await alice.pb
      .collection("messages")
      .create({ channel: channelId, sender: alice.id, encrypted_content: "unheard", sender_public_key: "" });
    await sleep(300);
    expect(relay.events).toEqual([]);

    // Bob (not a member) and Carol register; Carol's second token is garbage.
    const registered = await postJson(pb.url, "/api/chatcrypt/relay/users", { relay: relay.id, add: [bob.token, carol.token, "garbage"] });
    expect(registered.status).toBe(200);
    expect(registered.json).toEqual({ users: [bob.id, carol.id, ""] });
    await alice.pb
      .collection("messages")
      .create({ channel: channelId, sender: alice.id, encrypted_content: "still unheard", sender_public_key: "" });
    await sleep(300);
    expect(relay.events).toEqual([]);

    // Alice registers: the message goes to her alone.
    await postJson(pb.url, "/api/chatcrypt/relay/users", { relay: relay.id, add: [alice.token] });
    await alice.pb
      .collection("messages")
      .create({ channel: channelId, sender: alice.id, encrypted_content: "heard", sender_public_key: "" });
    await expect
      .poll(() => relay.events.filter((e) => e.kind === "message").map((e) => [e.data.to, e.data.record?.encrypted_content]))
      .toEqual([[[alice.id], "heard"]]);
    // The event named its recipient list (the channel's); the next one names it without listing them.
    expect(relay.events.find((e) => e.kind === "message")?.data.list).toBe(channelId);
    await alice.pb
      .collection("messages")
      .create({ channel: channelId, sender: alice.id, encrypted_content: "heard again", sender_public_key: "" });
    await expect
      .poll(() => relay.events.filter((e) => e.kind === "message").map((e) => [e.data.list, e.data.to, e.data.record?.encrypted_content]))
      .toEqual([
        [channelId, [alice.id], "heard"],
        [channelId, undefined, "heard again"],
      ]);

    // Unregistered again: nothing more.
    await postJson(pb.url, "/api/chatcrypt/relay/users", { relay: relay.id, remove: [alice.id] });
    await alice.pb
      .collection("messages")
      .create({ channel: channelId, sender: alice.id, encrypted_content: "gone", sender_public_key: "" });
    await sleep(300);
    expect(relay.events.filter((e) => e.kind === "message")).toHaveLength(2);
    relay.close();
  });

  it("tells a member an admin removed that they were removed, and nobody who left", async () => {
    const [alice, bob, carol] = await Promise.all([signUpUser(pb.url), signUpUser(pb.url), signUpUser(pb.url)]);
    const channel = await createChannel(alice);
    for (const member of [bob, carol]) expect((await joinChannel(member, channel)).status).toBe(200);
    const relay = await openRelay();
    await postJson(pb.url, "/api/chatcrypt/relay/users", { relay: relay.id, add: [alice.token, bob.token, carol.token] });

    // Carol leaves: the lists change, nobody was removed
    const own = await carol.pb
      .collection("channel_members")
      .getFirstListItem(carol.pb.filter("channel = {:c} && user = {:u}", { c: channel.id, u: carol.id }));
    await carol.pb.collection("channel_members").delete(own.id);
    await expect.poll(() => relay.events.filter((e) => e.kind === "memberships").length).toBe(1);
    // Alice removes Bob: he alone hears why, before his list changes
    const removed = await postJson(pb.url, "/api/chat/channels/members/remove", { channel_id: channel.id, user_id: bob.id }, alice.token);
    expect(removed.status, removed.text).toBe(200);
    await expect.poll(() => relay.events.filter((e) => e.kind === "memberships").length).toBe(2);
    expect(relay.events.filter((e) => e.kind !== "message").map((e) => [e.kind, e.data.to])).toEqual([
      ["memberships", expect.arrayContaining([carol.id, alice.id, bob.id])],
      ["removed", [bob.id]],
      ["memberships", expect.arrayContaining([bob.id, alice.id])],
    ]);
    expect(relay.events.find((e) => e.kind === "removed")?.data.record).toEqual({ channel: channel.id });
    relay.close();
  });

  it("refuses a signed-out token, and tells the relay at once when a registered one is signed out", async () => {
    const [alice, bob] = await Promise.all([signUpUser(pb.url), signUpUser(pb.url)]);
    const relay = await openRelay();
    const revokedEvents: string[] = [];
    relay.source.addEventListener("revoked", (m) => revokedEvents.push(JSON.parse(m.data).record.token));
    const registered = await postJson(pb.url, "/api/chatcrypt/relay/users", { relay: relay.id, add: [alice.token, bob.token] });
    expect(registered.json).toEqual({ users: [alice.id, bob.id] });

    const signout = await fetch(`${pb.url}/api/chat/signout`, { method: "POST", headers: { Authorization: alice.token } });
    expect(signout.status).toBe(204);
    const hash = createHash("sha256").update(alice.token).digest("hex");
    await expect.poll(() => revokedEvents).toEqual([hash]);

    // Alice is no longer a recipient there; Bob still is.
    const res = await postJson(
      pb.url,
      "/api/chat/channels",
      { id: crypto.randomUUID(), name: "after", verifier: "v".repeat(43), ecdh_public_key: "k".repeat(60), kdf_iterations: 600_000 },
      bob.token,
    );
    const channelId = (res.json as { id: string }).id;
    const join = await fetch(`${pb.url}/api/chatcrypt/relay/users`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ relay: relay.id, add: [alice.token] }),
    });
    expect(await join.json()).toEqual({ users: [""] });
    await bob.pb.collection("messages").create({ channel: channelId, sender: bob.id, encrypted_content: "for bob", sender_public_key: "" });
    await expect.poll(() => relay.events.filter((e) => e.kind === "message").map((e) => e.data.to)).toEqual([[bob.id]]);
    relay.close();
  });

  it("refuses superuser tokens, unknown relay ids and oversized batches", async () => {
    const relay = await openRelay();
    const admin = await superuserClient(pb.url, pb.superuser);
    const su = await postJson(pb.url, "/api/chatcrypt/relay/users", { relay: relay.id, add: [admin.authStore.token] });
    expect(su.json).toEqual({ users: [""] });
    const unknown = await postJson(pb.url, "/api/chatcrypt/relay/users", { relay: "nope", add: [] });
    expect(unknown.status).toBe(404);
    const tooMany = await postJson(pb.url, "/api/chatcrypt/relay/users", { relay: relay.id, add: Array(1001).fill("x") });
    expect(tooMany.status).toBe(400);
    const malformed = await postJson(pb.url, "/api/chatcrypt/relay/users", { relay: relay.id, add: "x" });
    expect(malformed.status).toBe(400);
    relay.close();
    // the old id is gone with its connection
    await sleep(200);
    const closed = await postJson(pb.url, "/api/chatcrypt/relay/users", { relay: relay.id, add: [] });
    expect(closed.status).toBe(404);
  });
});
