// Retention (docs/decisions/0065-retention.md), against the PocketBase we build: the workspace's and a
// channel's settings with their checks; a sweep with a 1-day policy removes exactly the messages older
// than a day with their edits, reactions, pins, thread replies, attachments (and stored files), link
// previews and archive copies, leaves the rest, tells open pages by the deletion event, records one
// audit entry with the policy, and keeps each batch's write lock short; "keep pinned" keeps a pinned
// message. The sweep's clock is moved forward a day (the superuser's `now`): PocketBase keeps `created` as the server set it.

import { EventSource } from "eventsource";
import { openRelay } from "./relay-client";
import { existsSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import {
  createChannel,
  fakeCiphertext,
  fakeSealed,
  fakePublicKey,
  joinChannel,
  postJson,
  postMessage,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";

(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

let server: RunningPocketBase;
let su: PocketBase;
let owner: TestUser; // the workspace's owner, creator of the channel
let bob: TestUser; // a member
let channel: TestChannel;

const DAY = 24 * 60 * 60 * 1000;

const setWorkspace = (by: TestUser | undefined, body: unknown) => postJson(server.url, "/api/chat/admin/retention", body, by?.token);
const setChannel = (by: TestUser | undefined, body: unknown) => postJson(server.url, "/api/chat/channels/retention", body, by?.token);
/** What a member's pages read: the policy and the days that apply to each of their conversations. */
const readPolicy = async (by: TestUser) => {
  const res = await fetch(`${server.url}/api/chat/retention`, { headers: { Authorization: by.token } });
  return (await res.json()) as {
    days: number;
    per_channel: boolean;
    keep_pinned: boolean;
    channels: Record<string, number>;
    swept_at: string;
  };
};

interface SweepReport {
  messages: number;
  rows: number;
  files: number;
  previews: number;
  batches: number;
  longest_lock_ms: number;
  total_ms: number;
  policy: { days: number; per_channel: boolean; keep_pinned: boolean };
}

const annotate = (user: TestUser, channelId: string, kind: string, target: string) =>
  user.pb.collection("messages").create({
    channel: channelId,
    sender: user.id,
    encrypted_content: fakeCiphertext(),
    sender_public_key: fakePublicKey(),
    ...(kind === "reply" ? { kind, thread: target } : { kind, target }),
  });

const attach = async (user: TestUser, channelId: string, messageId: string) => {
  const form = new FormData();
  form.set("message", messageId);
  form.set("channel", channelId);
  form.set("uploaded_by", user.id);
  form.set("file_name", randomBytes(24).toString("base64url"));
  form.set("file_size", "36");
  form.set("file_type", "application/pdf");
  form.set("storage_path", `${user.id}/${channelId}/x.pdf`);
  form.set("file", new Blob([randomBytes(64)]), "encrypted.bin");
  return user.pb.collection("file_attachments").create(form);
};

const preview = (user: TestUser, channelId: string, messageId: string) => {
  const form = new FormData();
  form.set("message", messageId);
  form.set("channel", channelId);
  form.set("url", "https://example.com/a");
  form.set("title", "A page");
  form.set("image", new Blob([randomBytes(64)], { type: "image/png" }), "image.png");
  return user.pb.collection("link_previews").create(form);
};

const storedFile = (collection: string, record: { collectionId: string; id: string; file?: unknown; image?: unknown }) =>
  path.join(
    server.dataDir,
    "storage",
    record.collectionId,
    record.id,
    String(collection === "file_attachments" ? record.file : record.image),
  );

beforeAll(async () => {
  server = await startPocketBase();
  owner = await signUpUser(server.url);
  bob = await signUpUser(server.url);
  su = await superuserClient(server.url, server.superuser);
  channel = await createChannel(owner);
  expect((await joinChannel(bob, channel)).status).toBe(200);
});

afterAll(async () => {
  await server?.stop();
});

describe("settings", () => {
  it("hostile input to the workspace's route gets a 4xx and changes nothing", async () => {
    const bad: unknown[] = [
      { days: -1 },
      { days: 1.5 },
      { days: "30" },
      { days: 36501 },
      { days: null },
      {},
      [30],
      { days: 30, per_channel: "yes" },
      { days: 30, keep_pinned: 1 },
    ];
    for (const body of bad) {
      const res = await setWorkspace(owner, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect((await setWorkspace(bob, { days: 30 })).status).toBe(403);
    expect((await setWorkspace(undefined, { days: 30 })).status).toBe(401);
    expect((await post("/api/chat/admin/retention", "not json", owner)).status).toBe(400);
    expect(await readPolicy(owner)).toEqual({ days: 0, per_channel: false, keep_pinned: false, channels: {}, swept_at: "" });
  });

  it("the console's count of what a shorter period deletes: administrators only, bad input a 4xx, nothing changed", async () => {
    const preview = (by: TestUser | undefined, body: unknown) => postJson(server.url, "/api/chat/admin/retention/preview", body, by?.token);
    for (const body of [{ days: -1 }, { days: "30" }, {}, [30], { days: 30, keep_pinned: "yes" }]) {
      const res = await preview(owner, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect((await preview(bob, { days: 30 })).status).toBe(403);
    expect((await preview(undefined, { days: 30 })).status).toBe(401);
    expect((await post("/api/chat/admin/retention/preview", "not json", owner)).status).toBe(400);
    // (the workspace's messages are seconds old: a day's period deletes none of them now; the counting
    // itself is pocketbase/retention_preview_test.go, with messages of any age)
    const counted = await preview(owner, { days: 1, keep_pinned: true });
    expect([counted.status, counted.json]).toEqual([200, { messages: 0 }]);
    expect(await readPolicy(owner)).toEqual({ days: 0, per_channel: false, keep_pinned: false, channels: {}, swept_at: "" });
  });

  it("a channel admin sets a shorter period only where the workspace allows it", async () => {
    expect((await setChannel(owner, { channel_id: channel.id, days: 7 })).status).toBe(403);
    expect((await setWorkspace(owner, { days: 30, per_channel: true })).status).toBe(200);
    expect((await setChannel(bob, { channel_id: channel.id, days: 7 })).status).toBe(403);
    for (const days of [30, 60]) expect((await setChannel(owner, { channel_id: channel.id, days })).status).toBe(400);
    for (const body of [{ channel_id: "nope", days: 7 }, { channel_id: channel.id, days: -3 }, { channel_id: channel.id }])
      expect((await setChannel(owner, body)).status).toBe(400);
    // the channel admin's count of what that period deletes from the channel: its admins only, bad input a 4xx
    const preview = (by: TestUser | undefined, body: unknown) =>
      postJson(server.url, "/api/chat/channels/retention/preview", body, by?.token);
    expect((await preview(bob, { channel_id: channel.id, days: 7 })).status).toBe(403);
    expect((await preview(undefined, { channel_id: channel.id, days: 7 })).status).toBe(401);
    for (const body of [
      { channel_id: "nope", days: 7 },
      { channel_id: channel.id, days: -3 },
      { channel_id: channel.id },
      { channel_id: channel.id, days: 30 },
    ])
      expect([JSON.stringify(body), (await preview(owner, body)).status]).toEqual([JSON.stringify(body), 400]);
    expect((await post("/api/chat/channels/retention/preview", "not json", owner)).status).toBe(400);
    const counted = await preview(owner, { channel_id: channel.id, days: 7 });
    expect([counted.status, counted.json]).toEqual([200, { messages: 0 }]);
    expect((await setChannel(owner, { channel_id: channel.id, days: 7 })).status).toBe(200);
    expect(await readPolicy(bob)).toMatchObject({ days: 30, per_channel: true, channels: { [channel.id]: 7 } });
    const outsider = await signUpUser(server.url);
    expect((await readPolicy(outsider)).channels).toEqual({});
    expect((await fetch(`${server.url}/api/chat/retention`)).status).toBe(401);
    // the workspace shortens below the channel's: the shorter applies
    expect((await setWorkspace(owner, { days: 5 })).status).toBe(200);
    expect((await readPolicy(bob)).channels).toEqual({ [channel.id]: 5 });
    // the account export says which policy applied
    const exported = await fetch(`${server.url}/api/chat/account/export`, { headers: { Authorization: bob.token } });
    expect(((await exported.json()) as { retention: unknown }).retention).toEqual({
      days: 5,
      per_channel: true,
      keep_pinned: false,
      channels: { [channel.id]: 5 },
    });
    // the console names the channel whose period changed, not its id
    const logged = await fetch(`${server.url}/api/chat/admin/audit?action=settings.changed`, { headers: { Authorization: owner.token } });
    const channelEntry = (
      (await logged.json()) as { items: { target: string; channel_name: string; details: { setting: string } }[] }
    ).items.find((item) => item.details.setting === "channel_retention_days");
    expect(channelEntry).toMatchObject({ target: channel.id, channel_name: `#${channel.name}` });
    const changes = await su.collection("audit_log").getFullList({ filter: 'action = "settings.changed"', sort: "seq" });
    expect(changes.map((r) => (r.details as { setting: string }).setting)).toEqual([
      "retention_days",
      "retention_per_channel",
      "channel_retention_days",
      "retention_days",
    ]);
  });
});

function post(route: string, body: string, by: TestUser) {
  return fetch(`${server.url}${route}`, { method: "POST", headers: { Authorization: by.token, "Content-Type": "application/json" }, body });
}

describe("the sweep", () => {
  it("removes exactly the old messages, their annotations, replies, files and previews, live, and leaves the rest", async () => {
    expect((await setChannel(owner, { channel_id: channel.id, days: 0 })).status).toBe(200);
    expect((await setWorkspace(owner, { days: 1, per_channel: false, keep_pinned: false })).status).toBe(200);

    const old = await postMessage(owner, channel.id);
    const edit = await annotate(owner, channel.id, "edit", old.id);
    const reaction = await annotate(bob, channel.id, "reaction", old.id);
    const pin = await annotate(bob, channel.id, "pin", old.id);
    const file = await attach(owner, channel.id, old.id);
    const image = await preview(owner, channel.id, old.id);
    const archived = await su.collection("message_archive").create({ owner: bob.id, channel: channel.id, message: old.id, data: "AAAA" });
    const oldAlone = await postMessage(bob, channel.id);
    // everything from here on is newer than the cutoff
    const kept = await postMessage(bob, channel.id);
    const reply = await annotate(bob, channel.id, "reply", old.id); // newer itself: goes with its root
    const replyReaction = await annotate(owner, channel.id, "reaction", reply.id);
    const keptReaction = await annotate(owner, channel.id, "reaction", kept.id);
    const keptFile = await attach(bob, channel.id, kept.id);
    const gone = [old.id, edit.id, reaction.id, pin.id, reply.id, replyReaction.id, oldAlone.id];
    expect(existsSync(storedFile("file_attachments", file))).toBe(true);
    expect(existsSync(storedFile("link_previews", image))).toBe(true);

    const deleted: string[] = [];
    await bob.pb.realtime.subscribe("chatcrypt/messages", (e: { action: string; record: { id: string } }) => {
      if (e.action === "delete") deleted.push(e.record.id);
    });
    // every page of Bob's, whichever conversation it has open, hears which messages and replies are gone
    // (they leave its search index; edits, reactions and pins are not in it)
    const relay = await openRelay(server.url, ["gone"]);
    expect((await postJson(server.url, "/api/chatcrypt/relay/users", { relay: relay.id, add: [bob.token] })).status).toBe(200);

    expect((await readPolicy(bob)).swept_at).toBe("");
    const report = await sweepOneDayAfter(oldAlone, kept);
    // pages drop what it removed by its clock, ahead of theirs here (ADR 81)
    expect(Date.parse((await readPolicy(bob)).swept_at)).toBe(Date.parse(String(kept.created).replace(" ", "T")) + DAY);
    // messages and replies counted as such (old, its reply, oldAlone); edits, reactions and pins among the rows
    expect(report).toMatchObject({
      messages: 3,
      rows: gone.length,
      files: 1,
      archived: 1,
      previews: 1,
      policy: { days: 1, per_channel: false, keep_pinned: false },
    });
    // a handful of rows in one batch: the lock is held for milliseconds (the bench measures 1,000,000)
    console.log(`retention sweep: ${report.batches} batch(es), longest write lock ${report.longest_lock_ms} ms`);
    expect(report.longest_lock_ms).toBeLessThan(50);

    const left = await su.collection("messages").getFullList({ filter: `channel = "${channel.id}"` });
    expect(left.map((m) => m.id).sort()).toEqual([kept.id, keptReaction.id].sort());
    expect((await su.collection("file_attachments").getFullList({ filter: `channel = "${channel.id}"` })).map((r) => r.id)).toEqual([
      keptFile.id,
    ]);
    expect(await su.collection("link_previews").getFullList({ filter: `channel = "${channel.id}"` })).toEqual([]);
    expect(await su.collection("message_archive").getFullList({ filter: `id = "${archived.id}"` })).toEqual([]);
    expect(existsSync(storedFile("file_attachments", file))).toBe(false);
    expect(existsSync(storedFile("link_previews", image))).toBe(false);
    expect(existsSync(storedFile("file_attachments", keptFile))).toBe(true);

    await expect.poll(() => [...deleted].sort(), { timeout: 5000 }).toEqual([...gone].sort());
    await bob.pb.realtime.unsubscribe();
    const goneIds = () => relay.events.flatMap((e) => (e.data.record as { ids: string[] }).ids);
    await expect.poll(() => goneIds().sort(), { timeout: 5000 }).toEqual([old.id, reply.id, oldAlone.id].sort());
    expect(new Set(relay.events.map((e) => (e.data.record as { channel: string }).channel))).toEqual(new Set([channel.id]));
    relay.close();

    const [entry] = await su.collection("audit_log").getFullList({ filter: 'action = "retention.swept"' });
    expect(entry.details).toMatchObject({ messages: 3, files: 1, previews: 1, workspace_days: 1, keep_pinned: false });
    // nothing older than the policy is left: a second sweep deletes nothing and records nothing
    expect((await sweepOneDayAfter(oldAlone, kept)).rows).toBe(0);
    expect(await su.collection("audit_log").getFullList({ filter: 'action = "retention.swept"' })).toHaveLength(1);
  });

  it("keeps a pinned message when the workspace says so, in small batches", async () => {
    const other = await createChannel(owner);
    expect((await joinChannel(bob, other)).status).toBe(200);
    expect((await setWorkspace(owner, { days: 1, keep_pinned: true })).status).toBe(200);
    const pinned = await postMessage(owner, other.id);
    const pin = await annotate(bob, other.id, "pin", pinned.id);
    // its thread stays whole: an old reply, and that reply's reaction
    const pinnedReply = await annotate(owner, other.id, "reply", pinned.id);
    const replyReaction = await annotate(bob, other.id, "reaction", pinnedReply.id);
    const many = [];
    for (let i = 0; i < 5; i++) many.push(await postMessage(bob, other.id));
    const later = await postMessage(bob, other.id);
    const report = await sweepOneDayAfter(many[4], later, 2);
    // the sweep covers every conversation: the first test's messages, older than this cutoff, go too
    expect(report.policy.keep_pinned).toBe(true);
    expect(report.messages).toBeGreaterThanOrEqual(5);
    expect(report.batches).toBeGreaterThanOrEqual(3);
    const left = (await su.collection("messages").getFullList({ filter: `channel = "${other.id}"` })).map((m) => m.id);
    expect(left.sort()).toEqual([pinned.id, pin.id, pinnedReply.id, replyReaction.id, later.id].sort());
  });

  it("sealed (MLS) conversations follow the same rule: ciphertext rows by their server times", async () => {
    const sealed = await createChannel(owner, "Sealed", { sealed: true });
    await su.collection("mls_groups").create({ channel: sealed.id, epoch: 0, group_info: "AAAA" });
    const post = () =>
      su.collection("messages").create({ channel: sealed.id, sender: owner.id, encrypted_content: fakeSealed(sealed.id, 0), epoch: 0 });
    const old = await post();
    const kept = await post();
    await sweepOneDayAfter(old, kept);
    expect((await su.collection("messages").getFullList({ filter: `channel = "${sealed.id}"` })).map((m) => m.id)).toEqual([kept.id]);
  });

  it("only a superuser runs it, with a sane batch and time", async () => {
    for (const query of ["batch=0", "batch=x", "batch=9999", "now=yesterday"]) {
      const res = await fetch(`${server.url}/api/chat/retention/sweep?${query}`, {
        method: "POST",
        headers: { Authorization: su.authStore.token },
      });
      expect([query, res.status]).toEqual([query, 400]);
    }
    const res = await fetch(`${server.url}/api/chat/retention/sweep`, { method: "POST", headers: { Authorization: owner.token } });
    expect(res.status).toBe(403);
  });
});

/**
 * The sweep with its clock moved one day past the first message that must stay: everything created
 * before that message is older than a 1-day policy, it and everything after are not.
 */
async function sweepOneDayAfter(lastGone: { [key: string]: unknown }, firstKept: { [key: string]: unknown }, batch?: number) {
  const cutoff = Date.parse(String(firstKept.created).replace(" ", "T"));
  expect(Date.parse(String(lastGone.created).replace(" ", "T"))).toBeLessThan(cutoff);
  const now = new Date(cutoff + DAY).toISOString();
  return su.send<SweepReport>(`/api/chat/retention/sweep?now=${encodeURIComponent(now)}${batch ? `&batch=${batch}` : ""}`, {
    method: "POST",
  });
}
