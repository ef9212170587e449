import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupInfo, newGroup, newKeyPackage } from "../../app/conversation/mls/mls";
import { b64 } from "./mls-helpers";
import {
  createChannel,
  fakeSealed,
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

// The message archive (ADR 0048, pb_hooks/archive.pb.js) against the real PocketBase: each user keeps
// sealed entries for messages of sealed conversations they are a member of, reads only their own, and
// nobody writes them but the route.

let server: RunningPocketBase;
let alice: TestUser;
let bob: TestUser;
let mallory: TestUser;
let sealed: TestChannel;
const messageIds: string[] = [];

const sealedEntry = (messageId: string, bytes = 80) => ({ message_id: messageId, data: randomBytes(bytes).toString("base64url") });
const put = (user: TestUser | null, body: unknown) => postJson(server.url, "/api/chat/archive", body, user?.token);

beforeAll(async () => {
  server = await startPocketBase();
  [alice, bob, mallory] = await Promise.all([1, 2, 3].map(() => signUpUser(server.url)));
  sealed = await createChannel(alice, undefined, { sealed: true });
  expect((await joinChannel(bob, sealed)).status).toBe(200);
  const state = await newGroup(sealed.id, await newKeyPackage(`${alice.id}:archive`));
  const group = await postJson(
    server.url,
    "/api/chat/mls/groups",
    { channel_id: sealed.id, group_info: b64(await groupInfo(state)) },
    alice.token,
  );
  expect(group.status).toBe(200);
  for (let i = 0; i < 3; i++) {
    const message = await alice.pb
      .collection("messages")
      .create({ channel: sealed.id, sender: alice.id, encrypted_content: fakeSealed(sealed.id, 0, 40), epoch: 0 });
    messageIds.push(message.id);
  }
});

afterAll(async () => {
  await server?.stop();
});

describe("message archive", () => {
  it("keeps each member's entries once, for themselves only", async () => {
    const first = await put(alice, { channel_id: sealed.id, entries: messageIds.slice(0, 2).map((id) => sealedEntry(id)) });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ stored: 2 });
    // Every device of the user sends what it read: an entry already kept stays as it was.
    const again = await put(alice, { channel_id: sealed.id, entries: messageIds.map((id) => sealedEntry(id)) });
    expect(again.json).toEqual({ stored: 1 });
    expect((await put(bob, { channel_id: sealed.id, entries: [sealedEntry(messageIds[0])] })).json).toEqual({ stored: 1 });

    const own = await alice.pb.collection("message_archive").getFullList({ filter: `channel = "${sealed.id}"` });
    expect(own.map((e) => e.message).sort()).toEqual([...messageIds].sort());
    expect(own.every((e) => e.owner === alice.id)).toBe(true);
    // Another member, or anyone else, sees none of Alice's entries, even asking for them by owner.
    const bobs = await bob.pb.collection("message_archive").getFullList({ filter: `owner = "${alice.id}"` });
    expect(bobs).toEqual([]);
    expect(await statusOf(mallory.pb.collection("message_archive").getOne(own[0].id))).toBe(404);
    expect(await mallory.pb.collection("message_archive").getFullList()).toEqual([]);
  });

  it("is written by the route only: no record is created, changed or deleted through the collection API", async () => {
    const [entry] = await alice.pb.collection("message_archive").getFullList({ filter: `channel = "${sealed.id}"` });
    const data = randomBytes(80).toString("base64url");
    expect(
      await statusOf(alice.pb.collection("message_archive").create({ owner: alice.id, channel: sealed.id, message: messageIds[0], data })),
    ).toBe(403);
    expect(await statusOf(alice.pb.collection("message_archive").update(entry.id, { data }))).toBe(403);
    expect(await statusOf(alice.pb.collection("message_archive").delete(entry.id))).toBe(403);
  });

  it("refuses strangers, classic channels and malformed input with a clear 4xx", async () => {
    const forbidden = await put(mallory, { channel_id: sealed.id, entries: [sealedEntry(messageIds[0])] });
    expect(forbidden.status).toBe(403);
    expect((await put(null, { channel_id: sealed.id, entries: [sealedEntry(messageIds[0])] })).status).toBe(401);
    const classic = await createChannel(alice);
    const classicMessage = await postMessage(alice, classic.id);
    const refused = await put(alice, { channel_id: classic.id, entries: [sealedEntry(classicMessage.id)] });
    expect(refused.status).toBe(409);
    expect((refused.json as { message: string }).message).toBe("Only sealed channels and direct conversations have an archive.");
    // A message of another conversation is not kept under this one.
    expect((await put(alice, { channel_id: sealed.id, entries: [sealedEntry(classicMessage.id)] })).json).toEqual({ stored: 0 });

    const malformed: unknown[] = [
      { channel_id: sealed.id },
      { channel_id: sealed.id, entries: [] },
      { channel_id: sealed.id, entries: Array.from({ length: 101 }, () => sealedEntry(messageIds[0])) },
      { channel_id: sealed.id, entries: ["x"] },
      { channel_id: sealed.id, entries: [{ message_id: "not an id", data: "AAAA" }] },
      { channel_id: sealed.id, entries: [{ message_id: messageIds[0], data: "plain text, not ciphertext" }] },
      { channel_id: sealed.id, entries: [sealedEntry(messageIds[0], 110_000)] },
      { channel_id: "not-a-channel", entries: [sealedEntry(messageIds[0])] },
    ];
    for (const body of malformed) {
      const answer = await put(alice, body);
      expect(answer.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect((answer.json as { message: string }).message).not.toMatch(/Something went wrong/);
    }
  });

  it("keeps a sender's own messages of a direct conversation for its other member, and for nobody else (ADR 0099)", async () => {
    const dm = randomUUID();
    expect((await postJson(server.url, "/api/chat/direct", { id: dm, participants: [bob.id] }, alice.token)).status).toBe(200);
    const state = await newGroup(dm, await newKeyPackage(`${alice.id}:gift`));
    const group = await postJson(
      server.url,
      "/api/chat/mls/groups",
      { channel_id: dm, group_info: b64(await groupInfo(state)) },
      alice.token,
    );
    expect(group.status, group.text).toBe(200);
    const create = (user: TestUser) =>
      user.pb.collection("messages").create({ channel: dm, sender: user.id, encrypted_content: fakeSealed(dm, 0, 40), epoch: 0 });
    const [fromAlice, fromBob] = [await create(alice), await create(bob)];

    const gift = await put(alice, { channel_id: dm, for: bob.id, entries: [sealedEntry(fromAlice.id), sealedEntry(fromBob.id)] });
    expect(gift.status, gift.text).toBe(200);
    // Only her own message: Bob's is his to keep.
    expect(gift.json).toEqual({ stored: 1 });
    const bobs = await bob.pb.collection("message_archive").getFullList({ filter: `channel = "${dm}"` });
    expect(bobs.map((e) => [e.message, e.gift, e.owner])).toEqual([[fromAlice.id, true, bob.id]]);
    expect(await alice.pb.collection("message_archive").getFullList({ filter: `channel = "${dm}"` })).toEqual([]);
    // Bob's own entry of it, read on one of his devices later, leaves the kept one as it is.
    expect((await put(bob, { channel_id: dm, entries: [sealedEntry(fromAlice.id)] })).json).toEqual({ stored: 0 });
    expect((await put(alice, { channel_id: dm, for: bob.id, entries: [sealedEntry(fromAlice.id)] })).json).toEqual({ stored: 0 });

    const refused = async (user: TestUser | null, body: unknown, status: number, message?: string) => {
      const answer = await put(user, body);
      expect(answer.status, JSON.stringify(body).slice(0, 120)).toBe(status);
      if (message) expect((answer.json as { message: string }).message).toBe(message);
    };
    await refused(
      alice,
      { channel_id: dm, for: mallory.id, entries: [sealedEntry(fromAlice.id)] },
      403,
      "That person is not a member of this conversation.",
    );
    await refused(mallory, { channel_id: dm, for: bob.id, entries: [sealedEntry(fromAlice.id)] }, 403);
    await refused(
      alice,
      { channel_id: sealed.id, for: bob.id, entries: [sealedEntry(messageIds[0])] },
      409,
      "Messages are kept for the other members of direct conversations only.",
    );
    await refused(alice, { channel_id: dm, for: alice.id, entries: [sealedEntry(fromAlice.id)] }, 400, "for must be another member.");
    for (const forId of ["not an id", 42, null, ["x"], "A".repeat(15)])
      await refused(alice, { channel_id: dm, for: forId, entries: [sealedEntry(fromAlice.id)] }, 400, "for must be a user id.");
  });

  it("goes with its message, and with the account", async () => {
    const admin = await superuserClient(server.url, server.superuser);
    await admin.collection("messages").delete(messageIds[2]);
    const left = await alice.pb.collection("message_archive").getFullList({ filter: `channel = "${sealed.id}"` });
    expect(left.map((e) => e.message).sort()).toEqual(messageIds.slice(0, 2).sort());
    await admin.collection("users").delete(bob.id);
    expect(await admin.collection("message_archive").getFullList({ filter: `owner = "${bob.id}"` })).toEqual([]);
  });
});
