import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  fakeCiphertext,
  joinChannel,
  postJson,
  postMessage,
  signUpUser,
  startPocketBase,
  statusOf,
  superuserClient,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";

// API rules of edits, reactions, deletions, read positions and member removal: non-members see nothing,
// nobody acts for another user, nothing of another channel is reachable.
let server: RunningPocketBase;
let admin: PocketBase;
let alice: TestUser; // creator
let bob: TestUser; // member
let mallory: TestUser; // member of nothing
let channel: TestChannel;
let other: TestChannel;

const annotation = (user: TestUser, channelId: string, kind: "edit" | "reaction" | "pin", target: string) =>
  user.pb.collection("messages").create({ channel: channelId, sender: user.id, kind, target, encrypted_content: fakeCiphertext() });

beforeAll(async () => {
  server = await startPocketBase();
  admin = await superuserClient(server.url, server.superuser);
  [alice, bob, mallory] = await Promise.all([signUpUser(server.url), signUpUser(server.url), signUpUser(server.url)]);
  channel = await createChannel(alice, "Team");
  other = await createChannel(alice, "Other");
  expect((await joinChannel(bob, channel)).status).toBe(200);
});

afterAll(async () => {
  await server?.stop();
});

describe("edits", () => {
  it("only the original sender edits a message, in its own channel", async () => {
    const original = await postMessage(alice, channel.id);
    expect(await statusOf(annotation(alice, channel.id, "edit", original.id))).toBe(200);
    expect(await statusOf(annotation(bob, channel.id, "edit", original.id))).toBe(400);
    expect(await statusOf(annotation(mallory, channel.id, "edit", original.id))).toBe(400);
    expect(await statusOf(annotation(alice, other.id, "edit", original.id))).toBe(400);
  });

  it("an edit or a reaction names a message, never another edit or reaction; a message names none", async () => {
    const original = await postMessage(alice, channel.id);
    const edit = await annotation(alice, channel.id, "edit", original.id);
    expect(await statusOf(annotation(alice, channel.id, "edit", edit.id))).toBe(400);
    expect(await statusOf(annotation(bob, channel.id, "reaction", edit.id))).toBe(400);
    expect(
      await statusOf(
        alice.pb
          .collection("messages")
          .create({ channel: channel.id, sender: alice.id, target: original.id, encrypted_content: fakeCiphertext() }),
      ),
    ).toBe(400);
    expect(
      await statusOf(
        alice.pb
          .collection("messages")
          .create({ channel: channel.id, sender: alice.id, kind: "edit", encrypted_content: fakeCiphertext() }),
      ),
    ).toBe(400);
  });
});

describe("reactions", () => {
  it("members react to any message of their channel, as themselves only", async () => {
    const original = await postMessage(alice, channel.id);
    expect(await statusOf(annotation(bob, channel.id, "reaction", original.id))).toBe(200);
    expect(await statusOf(annotation(mallory, channel.id, "reaction", original.id))).toBe(400);
    expect(
      await statusOf(
        bob.pb
          .collection("messages")
          .create({ channel: channel.id, sender: alice.id, kind: "reaction", target: original.id, encrypted_content: fakeCiphertext() }),
      ),
    ).toBe(400);
  });

  it("non-members see none, and a reaction goes when its message is deleted", async () => {
    const original = await postMessage(alice, channel.id);
    const reaction = await annotation(bob, channel.id, "reaction", original.id);
    expect((await mallory.pb.collection("messages").getList(1, 50)).totalItems).toBe(0);
    expect(await statusOf(mallory.pb.collection("messages").getOne(reaction.id))).toBe(404);
    await alice.pb.collection("messages").delete(original.id);
    expect(await statusOf(admin.collection("messages").getOne(reaction.id))).toBe(404);
  });
});

describe("pins", () => {
  it("any member pins any message of their channel, as themselves; never an annotation, another channel's message, or as a non-member", async () => {
    const original = await postMessage(alice, channel.id);
    const pin = await annotation(bob, channel.id, "pin", original.id);
    expect(pin.kind).toBe("pin");
    expect(await statusOf(annotation(alice, channel.id, "pin", original.id))).toBe(200);
    expect(await statusOf(annotation(mallory, channel.id, "pin", original.id))).toBe(400);
    expect(await statusOf(annotation(bob, channel.id, "pin", pin.id))).toBe(400);
    expect(await statusOf(annotation(alice, other.id, "pin", original.id))).toBe(400);
    expect((await mallory.pb.collection("messages").getList(1, 50)).totalItems).toBe(0);
    // a pin goes with its message
    await alice.pb.collection("messages").delete(original.id);
    expect(await statusOf(admin.collection("messages").getOne(pin.id))).toBe(404);
  });
});

describe("threads", () => {
  const replyTo = (user: TestUser, channelId: string, root: string, inChannel = false) =>
    user.pb.collection("messages").create({
      channel: channelId,
      sender: user.id,
      thread: root,
      ...(inChannel ? {} : { kind: "reply" }),
      encrypted_content: fakeCiphertext(),
    });

  it("a reply names a root of its own channel that is in no thread; members only; it goes with its root", async () => {
    const root = await postMessage(alice, channel.id);
    const reply = await replyTo(bob, channel.id, root.id);
    expect(reply.kind).toBe("reply");
    expect(await statusOf(replyTo(alice, channel.id, root.id, true))).toBe(200);
    // not a reply of a reply, not another channel's root, not a non-member's, not without a root
    expect(await statusOf(replyTo(alice, channel.id, reply.id))).toBe(400);
    expect(await statusOf(replyTo(alice, other.id, root.id))).toBe(400);
    expect(await statusOf(replyTo(mallory, channel.id, root.id))).toBe(400);
    expect(
      await statusOf(
        bob.pb.collection("messages").create({ channel: channel.id, sender: bob.id, kind: "reply", encrypted_content: fakeCiphertext() }),
      ),
    ).toBe(400);
    // replies can be reacted to
    expect(await statusOf(annotation(alice, channel.id, "reaction", reply.id))).toBe(200);
    await alice.pb.collection("messages").delete(root.id);
    expect(await statusOf(admin.collection("messages").getOne(reply.id))).toBe(404);
  });
});

describe("deletions", () => {
  it("a sender deletes their own message; a member cannot delete another's; the creator can", async () => {
    const bobs = await postMessage(bob, channel.id);
    const alices = await postMessage(alice, channel.id);
    expect(await statusOf(bob.pb.collection("messages").delete(alices.id))).toBe(404);
    expect(await statusOf(mallory.pb.collection("messages").delete(bobs.id))).toBe(404);
    expect(await statusOf(bob.pb.collection("messages").delete(bobs.id))).toBe(200);
    const again = await postMessage(bob, channel.id);
    expect(await statusOf(alice.pb.collection("messages").delete(again.id))).toBe(200);
  });
});

describe("read positions", () => {
  it("are the owner's alone, for their own channels", async () => {
    const own = await bob.pb
      .collection("read_positions")
      .create({ user: bob.id, channel: channel.id, last_read: "2026-01-01 00:00:00.000Z" });
    expect(
      await statusOf(
        mallory.pb.collection("read_positions").create({ user: mallory.id, channel: channel.id, last_read: "2026-01-01 00:00:00.000Z" }),
      ),
    ).toBe(400);
    expect(
      await statusOf(
        bob.pb.collection("read_positions").create({ user: alice.id, channel: channel.id, last_read: "2026-01-01 00:00:00.000Z" }),
      ),
    ).toBe(400);
    expect(await mallory.pb.collection("read_positions").getFullList()).toHaveLength(0);
    expect(await alice.pb.collection("read_positions").getFullList()).toHaveLength(0);
    expect(await statusOf(alice.pb.collection("read_positions").update(own.id, { last_read: "2027-01-01 00:00:00.000Z" }))).toBe(404);
    expect([400, 404]).toContain(await statusOf(bob.pb.collection("read_positions").update(own.id, { user: alice.id })));
    expect([400, 404]).toContain(await statusOf(bob.pb.collection("read_positions").update(own.id, { channel: other.id })));
    expect(await statusOf(bob.pb.collection("read_positions").update(own.id, { last_read: "2026-02-01 00:00:00.000Z" }))).toBe(200);
  });

  it("the unread count is per user, after their read position, without edits and reactions", async () => {
    const room = await createChannel(alice, "Counting");
    expect((await joinChannel(bob, room)).status).toBe(200);
    const first = await postMessage(alice, room.id);
    await postMessage(alice, room.id);
    await annotation(alice, room.id, "edit", first.id);
    await postMessage(bob, room.id);
    const counts = async (user: TestUser) =>
      (await user.pb.send<{ unread: { channelId: string; count: number }[] }>("/api/chat/unread", {})).unread.find(
        (u) => u.channelId === room.id,
      )?.count ?? 0;
    expect(await counts(bob)).toBe(2);
    expect(await counts(alice)).toBe(1);
    await bob.pb.collection("read_positions").create({ user: bob.id, channel: room.id, last_read: first.created });
    expect(await counts(bob)).toBe(1);
    // the newest message counted: the page tells by it whether a message it received live was counted
    const second = await postMessage(alice, room.id);
    const row = (await bob.pb.send<{ unread: { channelId: string; newest: string }[] }>("/api/chat/unread", {})).unread;
    expect(row.find((u) => u.channelId === room.id)?.newest).toBe(second.created);
    expect(await statusOf(mallory.pb.send("/api/chat/unread", {}))).toBe(200);
    expect((await mallory.pb.send<{ unread: unknown[] }>("/api/chat/unread", {})).unread).toEqual([]);
  });
});

describe("threads seen (ADR 0097)", () => {
  it("are the owner's alone, for roots of their own channels, and go with the root", async () => {
    const root = await postMessage(alice, channel.id);
    const elsewhere = await postMessage(alice, other.id);
    const at = "2026-01-01 00:00:00.000Z";
    const own = await bob.pb.collection("thread_reads").create({ user: bob.id, root: root.id, seen: at });
    // not a member of the root's channel; not for someone else; not twice
    expect(await statusOf(mallory.pb.collection("thread_reads").create({ user: mallory.id, root: root.id, seen: at }))).toBe(400);
    expect(await statusOf(bob.pb.collection("thread_reads").create({ user: bob.id, root: elsewhere.id, seen: at }))).toBe(400);
    expect(await statusOf(bob.pb.collection("thread_reads").create({ user: alice.id, root: root.id, seen: at }))).toBe(400);
    expect(await statusOf(bob.pb.collection("thread_reads").create({ user: bob.id, root: root.id, seen: at }))).toBe(400);
    // a reply or an annotation is no thread's root
    const edit = await annotation(alice, channel.id, "edit", root.id);
    expect(await statusOf(bob.pb.collection("thread_reads").create({ user: bob.id, root: edit.id, seen: at }))).toBe(400);
    expect(await mallory.pb.collection("thread_reads").getFullList()).toHaveLength(0);
    expect(await alice.pb.collection("thread_reads").getFullList()).toHaveLength(0);
    expect(await statusOf(alice.pb.collection("thread_reads").update(own.id, { seen: "2027-01-01 00:00:00.000Z" }))).toBe(404);
    expect([400, 404]).toContain(await statusOf(bob.pb.collection("thread_reads").update(own.id, { user: alice.id })));
    expect([400, 404]).toContain(await statusOf(bob.pb.collection("thread_reads").update(own.id, { root: elsewhere.id })));
    expect(await statusOf(bob.pb.collection("thread_reads").update(own.id, { seen: "<script>" }))).toBe(400);
    expect(await statusOf(bob.pb.collection("thread_reads").update(own.id, { seen: "2026-02-01 00:00:00.000Z" }))).toBe(200);
    // the root deleted: its rows go with it
    await alice.pb.collection("messages").delete(root.id);
    expect(await bob.pb.collection("thread_reads").getFullList()).toHaveLength(0);
  });
});

describe("members", () => {
  it("lists a channel's members with usernames, the creator marked, for members only", async () => {
    process.env.SESSION_SECRET ??= "a-test-session-secret-of-at-least-32-characters";
    const { listMembers } = await import("~/features/members/members.server");
    const listed = await listMembers(bob.pb, channel.id);
    expect(listed.map((m) => m.userId).sort()).toEqual([alice.id, bob.id].sort());
    expect(listed.find((m) => m.userId === alice.id)).toMatchObject({ isCreator: true, username: alice.username });
    expect(listed.find((m) => m.userId === bob.id)).toMatchObject({ isCreator: false, username: bob.username });
    const refused = await listMembers(mallory.pb, channel.id).catch((response: Response) => response.status);
    expect(refused).toBe(404);
  });

  it("the creator removes a member (through the removal hook); members cannot remove each other; everyone can leave", async () => {
    const room = await createChannel(alice, "Removal");
    const carol = await signUpUser(server.url);
    expect((await joinChannel(bob, room)).status).toBe(200);
    expect((await joinChannel(carol, room)).status).toBe(200);
    const membership = async (user: TestUser) =>
      admin.collection("channel_members").getFirstListItem(admin.filter("channel = {:c} && user = {:u}", { c: room.id, u: user.id }));
    expect(await statusOf(bob.pb.collection("channel_members").delete((await membership(carol)).id))).toBe(404);
    // the creator removes through the removal hook, which bans (docs/decisions/0057-invites-and-bans.md);
    // deleting the membership directly is only for leaving
    expect(await statusOf(alice.pb.collection("channel_members").delete((await membership(carol)).id))).toBe(404);
    const removed = await postJson(
      server.url,
      "/api/chat/channels/members/remove",
      { channel_id: room.id, user_id: carol.id },
      alice.token,
    );
    expect(removed.status, removed.text).toBe(200);
    expect((await carol.pb.collection("channels").getFullList()).map((c) => c.id)).not.toContain(room.id);
    expect(await statusOf(alice.pb.collection("channel_members").delete((await membership(alice)).id))).toBe(404);
    expect(await statusOf(bob.pb.collection("channel_members").delete((await membership(bob)).id))).toBe(200);
  });
});
