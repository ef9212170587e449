import { randomBytes } from "node:crypto";
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

  it("goes with its message, and with the account", async () => {
    const admin = await superuserClient(server.url, server.superuser);
    await admin.collection("messages").delete(messageIds[2]);
    const left = await alice.pb.collection("message_archive").getFullList({ filter: `channel = "${sealed.id}"` });
    expect(left.map((e) => e.message).sort()).toEqual(messageIds.slice(0, 2).sort());
    await admin.collection("users").delete(bob.id);
    expect(await admin.collection("message_archive").getFullList({ filter: `owner = "${bob.id}"` })).toEqual([]);
  });
});
