import { createHash, randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  fakeCiphertext,
  fakePublicKey,
  joinChannel,
  postJson,
  postMessage,
  randomVerifier,
  signUpUser,
  startPocketBase,
  statusOf,
  superuserClient,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";

let server: RunningPocketBase;
let admin: PocketBase;
let alice: TestUser; // creates channels
let bob: TestUser; // joins them
let carol: TestUser; // never a member

beforeAll(async () => {
  server = await startPocketBase();
  admin = await superuserClient(server.url, server.superuser);
  [alice, bob, carol] = await Promise.all([signUpUser(server.url), signUpUser(server.url), signUpUser(server.url)]);
});

afterAll(async () => {
  await server?.stop();
});

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

async function membersOf(channelId: string) {
  return admin.collection("channel_members").getFullList({ filter: admin.filter("channel = {:id}", { id: channelId }) });
}

async function attach(user: TestUser, channelId: string, messageId: string) {
  return user.pb.collection("file_attachments").create({
    message: messageId,
    channel: channelId,
    file_name: fakeCiphertext(),
    file_size: 3,
    file_type: "application/octet-stream",
    storage_path: `${user.id}/${channelId}/${randomUUID()}.bin`,
    uploaded_by: user.id,
    file: new File([new Uint8Array([1, 2, 3])], "blob.bin", { type: "application/octet-stream" }),
  });
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

describe("channel access", () => {
  let channel: TestChannel;
  let aliceMessageId: string;

  beforeAll(async () => {
    channel = await createChannel(alice, "Private");
    expect((await joinChannel(bob, channel)).status).toBe(200);
    aliceMessageId = (await postMessage(alice, channel.id)).id;
  });

  describe("a non-member", () => {
    it("cannot list or view the channel", async () => {
      const list = await carol.pb.collection("channels").getFullList();
      expect(list.map((c) => c.id)).not.toContain(channel.id);
      expect(await statusOf(carol.pb.collection("channels").getOne(channel.id))).toBe(404);
    });

    it("cannot list or view its members", async () => {
      const members = await carol.pb.collection("channel_members").getFullList({
        filter: carol.pb.filter("channel = {:id}", { id: channel.id }),
      });
      expect(members).toHaveLength(0);
      const aliceMembership = (await membersOf(channel.id)).find((m) => m.user === alice.id)!;
      expect(await statusOf(carol.pb.collection("channel_members").getOne(aliceMembership.id))).toBe(404);
    });

    it("cannot list or view its messages", async () => {
      const messages = await carol.pb.collection("messages").getFullList({
        filter: carol.pb.filter("channel = {:id}", { id: channel.id }),
      });
      expect(messages).toHaveLength(0);
      expect(await statusOf(carol.pb.collection("messages").getOne(aliceMessageId))).toBe(404);
    });

    it("cannot post to it", async () => {
      expect(await statusOf(postMessage(carol, channel.id))).toBe(400);
    });

    it("cannot clear or delete it", async () => {
      const clear = await postJson(server.url, `/api/chat/channels/${channel.id}/clear`, {}, carol.token);
      expect(clear.status).toBe(404);
      expect(clear.json).toMatchObject({ message: "Channel not found" });
      expect(await statusOf(carol.pb.collection("channels").delete(channel.id))).toBe(404);
    });
  });

  describe("a member who is not the creator", () => {
    it("reads the channel, its members and its messages", async () => {
      expect((await bob.pb.collection("channels").getOne(channel.id)).name).toBe("Private");
      const members = await bob.pb.collection("channel_members").getFullList({
        filter: bob.pb.filter("channel = {:id}", { id: channel.id }),
      });
      expect(members.map((m) => m.user).sort()).toEqual([alice.id, bob.id].sort());
      const messages = await bob.pb.collection("messages").getFullList({
        filter: bob.pb.filter("channel = {:id}", { id: channel.id }),
      });
      expect(messages.map((m) => m.id)).toContain(aliceMessageId);
    });

    it("posts as themselves", async () => {
      const message = await postMessage(bob, channel.id);
      expect(message.sender).toBe(bob.id);
    });

    it("cannot delete the channel", async () => {
      expect(await statusOf(bob.pb.collection("channels").delete(channel.id))).toBe(404);
      expect(await statusOf(admin.collection("channels").getOne(channel.id))).toBe(200);
    });

    it("cannot clear the messages", async () => {
      const res = await postJson(server.url, `/api/chat/channels/${channel.id}/clear`, {}, bob.token);
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ message: "Only the channel creator can clear messages" });
      expect(await statusOf(bob.pb.collection("messages").delete(aliceMessageId))).toBe(404);
      expect(await statusOf(admin.collection("messages").getOne(aliceMessageId))).toBe(200);
    });

    it("cannot remove another member", async () => {
      const aliceMembership = (await membersOf(channel.id)).find((m) => m.user === alice.id)!;
      expect(await statusOf(bob.pb.collection("channel_members").delete(aliceMembership.id))).toBe(404);
    });
  });

  describe("the creator", () => {
    it("cannot leave by deleting their own membership", async () => {
      const own = (await membersOf(channel.id)).find((m) => m.user === alice.id)!;
      expect(await statusOf(alice.pb.collection("channel_members").delete(own.id))).toBe(404);
      expect((await membersOf(channel.id)).map((m) => m.user)).toContain(alice.id);
    });

    it("clears all messages, with their attachments and link previews", async () => {
      const bobMessage = await postMessage(bob, channel.id);
      const attachment = await attach(bob, channel.id, bobMessage.id);
      const preview = await bob.pb.collection("link_previews").create({
        message: bobMessage.id,
        channel: channel.id,
        url: fakeCiphertext(),
        title: fakeCiphertext(),
      });
      const before = await admin.collection("messages").getFullList({
        filter: admin.filter("channel = {:id}", { id: channel.id }),
      });
      expect(before.length).toBeGreaterThanOrEqual(3);

      const res = await postJson(server.url, `/api/chat/channels/${channel.id}/clear`, {}, alice.token);
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ deleted: before.length });

      const after = await admin.collection("messages").getFullList({
        filter: admin.filter("channel = {:id}", { id: channel.id }),
      });
      expect(after).toHaveLength(0);
      expect(await statusOf(admin.collection("file_attachments").getOne(attachment.id))).toBe(404);
      expect(await statusOf(admin.collection("link_previews").getOne(preview.id))).toBe(404);

      // the channel and its members stay
      expect(await membersOf(channel.id)).toHaveLength(2);

      // clearing an empty channel deletes nothing
      const again = await postJson(server.url, `/api/chat/channels/${channel.id}/clear`, undefined, alice.token);
      expect(again.json).toEqual({ deleted: 0 });
    });

    it("clear answers 400 for a malformed id and 401 without a user", async () => {
      const bad = await postJson(server.url, "/api/chat/channels/NOT-A-UUID/clear", {}, alice.token);
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ message: "Channel ID must be a UUID." });

      const guest = await postJson(server.url, `/api/chat/channels/${channel.id}/clear`, {});
      expect(guest.status).toBe(401);
      expect(guest.json).toMatchObject({ message: "User not authenticated" });

      const unknown = await postJson(server.url, `/api/chat/channels/${randomUUID()}/clear`, {}, alice.token);
      expect(unknown.status).toBe(404);
      expect(unknown.json).toMatchObject({ message: "Channel not found" });
    });
  });

  it("a member can leave, and then sees nothing of the channel", async () => {
    await postMessage(alice, channel.id);
    const own = (await membersOf(channel.id)).find((m) => m.user === bob.id)!;
    expect(await statusOf(bob.pb.collection("channel_members").delete(own.id))).toBe(200);

    expect(await statusOf(bob.pb.collection("channels").getOne(channel.id))).toBe(404);
    const messages = await bob.pb.collection("messages").getFullList({
      filter: bob.pb.filter("channel = {:id}", { id: channel.id }),
    });
    expect(messages).toHaveLength(0);
    expect(await statusOf(postMessage(bob, channel.id))).toBe(400);
  });

  it("the creator deletes the channel, and its members and messages go with it", async () => {
    const doomed = await createChannel(alice, "Doomed");
    expect((await joinChannel(bob, doomed)).status).toBe(200);
    const message = await postMessage(bob, doomed.id);
    const attachment = await attach(bob, doomed.id, message.id);

    expect(await statusOf(alice.pb.collection("channels").delete(doomed.id))).toBe(200);

    expect(await statusOf(admin.collection("channels").getOne(doomed.id))).toBe(404);
    expect(await membersOf(doomed.id)).toHaveLength(0);
    expect(await statusOf(admin.collection("messages").getOne(message.id))).toBe(404);
    expect(await statusOf(admin.collection("file_attachments").getOne(attachment.id))).toBe(404);
  });
});

describe("server restart", () => {
  it("keeps channels and memberships", async () => {
    const channel = await createChannel(alice, "Durable");
    await server.restart();
    expect((await alice.pb.collection("channels").getOne(channel.id)).name).toBe("Durable");
    expect((await joinChannel(bob, channel)).status).toBe(200);
  });
});
