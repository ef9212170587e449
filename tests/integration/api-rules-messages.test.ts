// The API rules of a channel's data: messages, attachments and previews, the hidden join-verifier
// hash, and what a non-member sees (api-rules-sample.ts holds the sample data).

import type { RecordModel } from "pocketbase";
import { describe, expect, it } from "vitest";
import { alice, bob, channel, ids, mallory, server, useRulesSample, verifierHash } from "./api-rules-sample";
import { client, createChannel, fakeCiphertext, joinChannel, postMessage, statusOf, type TestUser } from "./pocketbase";

useRulesSample();

describe("messages, attachments and previews", () => {
  it("nobody posts a message as someone else", async () => {
    const as = (author: TestUser, sender: string) =>
      author.pb.collection("messages").create({
        channel: channel.id,
        sender,
        encrypted_content: fakeCiphertext(),
      });
    expect(await statusOf(as(bob, alice.id))).toBe(400); // a member
    expect(await statusOf(as(alice, bob.id))).toBe(400); // the creator
    expect(await statusOf(as(mallory, alice.id))).toBe(400); // a non-member
    expect(await statusOf(as(mallory, mallory.id))).toBe(400);
    expect(await statusOf(as(bob, bob.id))).toBe(200);
  });

  it("messages cannot be edited", async () => {
    expect(await statusOf(alice.pb.collection("messages").update(ids.messages, { encrypted_content: "x" }))).toBe(403);
  });

  it("only the message's sender attaches files or previews, in the message's channel", async () => {
    const other = await createChannel(bob, "Other");
    const bobsMessageElsewhere = await postMessage(bob, other.id);

    // bob attaching to alice's message
    expect(
      await statusOf(
        bob.pb.collection("file_attachments").create({
          message: ids.messages,
          channel: channel.id,
          uploaded_by: bob.id,
          file_name: "x",
        }),
      ),
    ).toBe(400);
    // bob claiming alice uploaded
    const bobsMessage = await postMessage(bob, channel.id);
    expect(
      await statusOf(
        bob.pb.collection("file_attachments").create({
          message: bobsMessage.id,
          channel: channel.id,
          uploaded_by: alice.id,
          file_name: "x",
        }),
      ),
    ).toBe(400);
    // a message from another channel
    expect(
      await statusOf(
        bob.pb.collection("file_attachments").create({
          message: bobsMessageElsewhere.id,
          channel: channel.id,
          uploaded_by: bob.id,
          file_name: "x",
        }),
      ),
    ).toBe(400);
    expect(
      await statusOf(
        bob.pb.collection("link_previews").create({
          message: ids.messages,
          channel: channel.id,
          url: "x",
        }),
      ),
    ).toBe(400);
    expect(
      await statusOf(
        bob.pb.collection("link_previews").create({
          message: bobsMessageElsewhere.id,
          channel: channel.id,
          url: "x",
        }),
      ),
    ).toBe(400);

    // attachments and previews cannot be changed or deleted through the API
    expect(await statusOf(alice.pb.collection("file_attachments").update(ids.file_attachments, { file_name: "x" }))).toBe(403);
    expect(await statusOf(alice.pb.collection("file_attachments").delete(ids.file_attachments))).toBe(403);
    expect(await statusOf(alice.pb.collection("link_previews").delete(ids.link_previews))).toBe(403);
  });

  it("protected files download only for members with a file token", async () => {
    const attachment = await bob.pb.collection("file_attachments").getOne(ids.file_attachments);
    const plainUrl = bob.pb.files.getURL(attachment, attachment.file as string);
    expect((await fetch(plainUrl)).status).toBe(404);

    const bobToken = await bob.pb.files.getToken();
    const ok = await fetch(bob.pb.files.getURL(attachment, attachment.file as string, { token: bobToken }));
    expect(ok.status).toBe(200);
    expect(new Uint8Array(await ok.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, 4]));

    const malloryToken = await mallory.pb.files.getToken();
    const refused = await fetch(bob.pb.files.getURL(attachment, attachment.file as string, { token: malloryToken }));
    expect(refused.status).toBe(404);
  });
});

describe("verifier_hash", () => {
  const expectNoHash = (value: unknown) => {
    const text = JSON.stringify(value);
    expect(text).not.toContain("verifier_hash");
    expect(text).not.toContain(verifierHash);
  };

  it("never appears in list, view or expand answers", async () => {
    expectNoHash(await alice.pb.collection("channels").getFullList());
    expectNoHash(await alice.pb.collection("channels").getOne(channel.id));
    expectNoHash(await alice.pb.collection("channel_members").getFullList({ expand: "channel" }));
    expectNoHash(await alice.pb.collection("messages").getFullList({ expand: "channel,channel.created_by" }));
    expectNoHash(await alice.pb.collection("file_attachments").getFullList({ expand: "channel,message.channel" }));
    expectNoHash(await alice.pb.collection("link_previews").getFullList({ expand: "channel" }));
    expectNoHash(await alice.pb.collection("channels").getOne(channel.id, { fields: "*,verifier_hash" }));

    // the expand really happened, so its absence above is meaningful
    const members = await alice.pb.collection("channel_members").getFullList({ expand: "channel" });
    expect((members[0].expand?.channel as RecordModel | undefined)?.id).toBe(channel.id);
  });

  it("cannot be used to filter or sort (no oracle for guessing)", async () => {
    const probe = (collection: string, options: Record<string, string>) =>
      statusOf(alice.pb.collection(collection).getList(1, 10, options));

    expect(await probe("channels", { filter: `verifier_hash = "${verifierHash}"` })).toBe(400);
    expect(await probe("channels", { filter: 'verifier_hash != ""' })).toBe(400);
    expect(await probe("channels", { sort: "verifier_hash" })).toBe(400);
    expect(await probe("channels", { sort: "-verifier_hash" })).toBe(400);
    expect(await probe("channel_members", { filter: `channel.verifier_hash ~ "${verifierHash.slice(0, 4)}"` })).toBe(400);
    expect(await probe("messages", { filter: 'channel.verifier_hash != ""' })).toBe(400);
  });

  it("never appears in realtime events", async () => {
    const events: unknown[] = [];
    const realtime = client(server.url);
    realtime.authStore.save(alice.token, alice.record as never);
    const unsubscribe = [
      await realtime.collection("channels").subscribe("*", (event) => events.push(event)),
      await realtime.collection("channel_members").subscribe("*", (event) => events.push(event), { expand: "channel" }),
    ];
    try {
      const fresh = await createChannel(alice, "Live");
      expect((await joinChannel(bob, fresh)).status).toBe(200);
      await expect.poll(() => events.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);

      const created = events.find((e) => (e as { action: string; record: RecordModel }).record?.id === fresh.id);
      expect(created).toMatchObject({ action: "create", record: { id: fresh.id, name: "Live" } });
      for (const event of events) {
        expect(JSON.stringify(event)).not.toContain("verifier_hash");
      }
    } finally {
      for (const stop of unsubscribe) {
        await stop();
      }
      realtime.realtime.unsubscribe();
    }
  });
});

describe("members only", () => {
  it("a non-member sees no channel data in any collection", async () => {
    for (const name of [
      "channels",
      "channel_members",
      "messages",
      "file_attachments",
      "link_previews",
      "keyring_entries",
      "read_positions",
    ] as const) {
      const list = await mallory.pb.collection(name).getFullList();
      expect(list, name).toHaveLength(0);
      expect(await statusOf(mallory.pb.collection(name).getOne(ids[name])), name).toBe(404);
    }
  });
});
