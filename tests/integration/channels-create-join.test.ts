// Creating and joining channels: POST /api/chat/channels and POST /api/chat/channels/join.

import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, alice, bob, membersOf, server, useChannelsStack } from "./channels-stack";
import { createChannel, fakePublicKey, joinChannel, postJson, randomVerifier, statusOf, type TestChannel } from "./pocketbase";

useChannelsStack();

const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

function createBody(overrides: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    name: "Project X",
    verifier: randomVerifier(),
    ecdh_public_key: fakePublicKey(),
    kdf_iterations: 600_000,
    ...overrides,
  };
}

describe("POST /api/chat/channels", () => {
  it("creates the channel and the creator's membership", async () => {
    const body = createBody({ name: "  Project X  " });
    const res = await postJson(server.url, "/api/chat/channels", body, alice.token);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ id: body.id });

    const channel = await alice.pb.collection("channels").getOne(body.id);
    expect(channel).toMatchObject({ id: body.id, name: "Project X", created_by: alice.id, kdf_iterations: 600_000 });

    const members = await membersOf(body.id);
    expect(members).toHaveLength(1);
    expect(members[0]).toMatchObject({ user: alice.id, ecdh_public_key: body.ecdh_public_key });

    // only a hash of the verifier is stored (visible to superusers only)
    const stored = await admin.collection("channels").getOne(body.id);
    expect(stored.verifier_hash).toBe(sha256Hex(body.verifier));
  });

  it("needs a signed-in user", async () => {
    const res = await postJson(server.url, "/api/chat/channels", createBody());
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ message: "User not authenticated" });
  });

  it("refuses an id that is already taken, leaving the existing channel as it was", async () => {
    const body = createBody({ name: "Original" });
    expect((await postJson(server.url, "/api/chat/channels", body, alice.token)).status).toBe(200);

    const again = await postJson(server.url, "/api/chat/channels", { ...body, name: "Hijack" }, bob.token);
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ message: "A channel with this ID already exists." });

    const channel = await admin.collection("channels").getOne(body.id);
    expect(channel).toMatchObject({ name: "Original", created_by: alice.id });
    const members = await membersOf(body.id);
    expect(members.map((m) => m.user)).toEqual([alice.id]);
  });

  it("answers its creator's same create asked again (its answer was lost) with the channel it made, and nothing new", async () => {
    const body = createBody({ name: "Asked twice" });
    expect((await postJson(server.url, "/api/chat/channels", body, alice.token)).json).toEqual({ id: body.id });
    expect((await postJson(server.url, "/api/chat/channels", body, alice.token)).json).toEqual({ id: body.id });
    expect(await membersOf(body.id)).toHaveLength(1);
    // another verifier (another password) is another channel: refused
    const other = await postJson(server.url, "/api/chat/channels", { ...body, verifier: createBody().verifier }, alice.token);
    expect(other.status).toBe(400);
    expect(other.json).toMatchObject({ message: "A channel with this ID already exists." });
  });

  it("creates nothing when the membership cannot be saved (one transaction)", async () => {
    // the channel row is valid; the member's key exceeds its 1000-character limit
    const body = createBody({ ecdh_public_key: "k".repeat(1001) });
    const res = await postJson(server.url, "/api/chat/channels", body, alice.token);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ message: "Invalid ecdh_public_key: Must be no more than 1000 character(s)." });

    expect(await statusOf(admin.collection("channels").getOne(body.id))).toBe(404);
    expect(await membersOf(body.id)).toHaveLength(0);

    // the id is still free
    const retry = await postJson(server.url, "/api/chat/channels", { ...body, ecdh_public_key: fakePublicKey() }, alice.token);
    expect(retry.status, retry.text).toBe(200);
  });

  it.each([
    ["an upper-case UUID", { id: randomUUID().toUpperCase() }, "Channel ID must be a UUID."],
    ["a UUID without dashes", { id: randomUUID().replace(/-/g, "") }, "Channel ID must be a UUID."],
    ["a non-string id", { id: 123 }, "Channel ID must be a UUID."],
    ["a blank name", { name: "   " }, "Channel name must be 1-100 characters."],
    ["a 101-character name", { name: "n".repeat(101) }, "Channel name must be 1-100 characters."],
    ["a name that is not a string", { name: ["x"] }, "Channel name must be 1-100 characters."],
    ["a short verifier", { verifier: "abc" }, "Verifier must be a 43-character base64url string."],
    ["a padded base64 verifier", { verifier: `${"A".repeat(42)}=` }, "Verifier must be a 43-character base64url string."],
    ["a missing key", { ecdh_public_key: undefined }, "ecdh_public_key must be a non-empty string."],
    ["a fractional iteration count", { kdf_iterations: 1.5 }, "kdf_iterations must be a whole number."],
    ["too few iterations", { kdf_iterations: 1000 }, "Invalid kdf_iterations: Must be greater or equal than 100000."],
  ])("refuses %s", async (_label, overrides, message) => {
    const body = createBody(overrides);
    const res = await postJson(server.url, "/api/chat/channels", body, alice.token);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ message });
  });

  it("accepts a 100-character name of multi-byte characters", async () => {
    const res = await postJson(server.url, "/api/chat/channels", createBody({ name: "é".repeat(99) + "🔒" }), alice.token);
    expect(res.status, res.text).toBe(200);
  });

  it("cannot be bypassed through the channels or channel_members collections", async () => {
    expect(
      await statusOf(
        alice.pb.collection("channels").create({
          name: "direct",
          created_by: alice.id,
          verifier_hash: "x",
        }),
      ),
    ).toBe(403);

    const channel = await createChannel(alice);
    expect(await statusOf(bob.pb.collection("channel_members").create({ channel: channel.id, user: bob.id }))).toBe(403);
    expect(await statusOf(alice.pb.collection("channels").update(channel.id, { name: "renamed" }))).toBe(403);
  });
});

describe("POST /api/chat/channels/join", () => {
  let channel: TestChannel;

  beforeAll(async () => {
    channel = await createChannel(alice, "Join me");
  });

  it("refuses a wrong verifier", async () => {
    const res = await joinChannel(bob, { ...channel, verifier: randomVerifier() });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ message: "Incorrect password" });
    expect((await membersOf(channel.id)).map((m) => m.user)).toEqual([alice.id]);
  });

  it("answers 404 for an unknown channel", async () => {
    const res = await joinChannel(bob, { ...channel, id: randomUUID() });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ message: "Channel not found" });
  });

  it("answers 400 for a malformed channel id", async () => {
    for (const id of ["not-a-uuid", channel.id.toUpperCase(), "", 42, null]) {
      const res = await postJson(
        server.url,
        "/api/chat/channels/join",
        { channel_id: id, verifier: channel.verifier, ecdh_public_key: fakePublicKey() },
        bob.token,
      );
      expect(res.status, String(id)).toBe(400);
      expect(res.json).toMatchObject({ message: "Channel ID must be a UUID." });
    }
  });

  it("needs a signed-in user", async () => {
    const res = await postJson(server.url, "/api/chat/channels/join", {
      channel_id: channel.id,
      verifier: channel.verifier,
      ecdh_public_key: fakePublicKey(),
    });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ message: "Not authenticated" });
  });

  it("adds the member and is idempotent", async () => {
    const first = await joinChannel(bob, channel);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ id: channel.id, name: "Join me" });

    const second = await joinChannel(bob, channel);
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first.json);

    const members = await membersOf(channel.id);
    expect(members.map((m) => m.user).sort()).toEqual([alice.id, bob.id].sort());

    // the creator joining their own channel is also just "already a member"
    expect((await joinChannel(alice, channel)).status).toBe(200);
    expect(await membersOf(channel.id)).toHaveLength(2);
  });
});
