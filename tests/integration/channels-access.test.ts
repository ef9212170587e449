// Who may do what with a channel (non-members, members, the creator), leaving and deleting it, and
// channels surviving a server restart.

import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, alice, bob, carol, membersOf, server, useChannelsStack } from "./channels-stack";
import { createChannel, fakeCiphertext, joinChannel, postJson, postMessage, statusOf, type TestChannel, type TestUser } from "./pocketbase";

useChannelsStack();

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
