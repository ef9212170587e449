// The API rules of the records private to their owner: WhatsApp contacts and keyring entries
// (api-rules-sample.ts holds the sample data).

import { describe, expect, it } from "vitest";
import { admin, alice, bob, channel, ids, mallory, sealedText, useRulesSample } from "./api-rules-sample";
import { createChannel, fakeCiphertext, joinChannel, statusOf } from "./pocketbase";

useRulesSample();

describe("whatsapp_contacts", () => {
  it("another user cannot read, change or delete them", async () => {
    const list = await bob.pb.collection("whatsapp_contacts").getFullList();
    expect(list).toHaveLength(0);
    const byFilter = await bob.pb.collection("whatsapp_contacts").getFullList({
      filter: bob.pb.filter("user = {:id}", { id: alice.id }),
    });
    expect(byFilter).toHaveLength(0);
    expect(await statusOf(bob.pb.collection("whatsapp_contacts").getOne(ids.whatsapp_contacts))).toBe(404);
    expect(await statusOf(bob.pb.collection("whatsapp_contacts").update(ids.whatsapp_contacts, { name: "x" }))).toBe(404);
    expect(await statusOf(bob.pb.collection("whatsapp_contacts").delete(ids.whatsapp_contacts))).toBe(404);
    expect(await statusOf(admin.collection("whatsapp_contacts").getOne(ids.whatsapp_contacts))).toBe(200);
  });

  it("cannot be created for another user", async () => {
    expect(
      await statusOf(
        bob.pb.collection("whatsapp_contacts").create({
          user: alice.id,
          name: "x",
          phone_number: "y",
        }),
      ),
    ).toBe(400);
  });

  it("cannot be moved to another user", async () => {
    expect(await statusOf(alice.pb.collection("whatsapp_contacts").update(ids.whatsapp_contacts, { user: bob.id }))).toBe(404);
    const contact = await admin.collection("whatsapp_contacts").getOne(ids.whatsapp_contacts);
    expect(contact.user).toBe(alice.id);
  });

  it("the owner creates, reads, updates and deletes their own", async () => {
    const created = await bob.pb.collection("whatsapp_contacts").create({
      user: bob.id,
      name: fakeCiphertext(),
      phone_number: fakeCiphertext(),
    });
    const updated = await bob.pb.collection("whatsapp_contacts").update(created.id, { name: "renamed", user: bob.id });
    expect(updated.name).toBe("renamed");
    expect((await bob.pb.collection("whatsapp_contacts").getFullList()).map((c) => c.id)).toEqual([created.id]);
    expect(await statusOf(bob.pb.collection("whatsapp_contacts").delete(created.id))).toBe(200);
  });
});

describe("keyring_entries", () => {
  it("another user cannot read, change or delete them", async () => {
    expect(await bob.pb.collection("keyring_entries").getFullList()).toHaveLength(0);
    expect(await statusOf(bob.pb.collection("keyring_entries").getOne(ids.keyring_entries))).toBe(404);
    expect(await statusOf(bob.pb.collection("keyring_entries").update(ids.keyring_entries, { data: sealedText() }))).toBe(404);
    expect(await statusOf(bob.pb.collection("keyring_entries").delete(ids.keyring_entries))).toBe(404);
  });

  it("cannot be created for another user, nor for a channel one is not a member of", async () => {
    expect(await statusOf(bob.pb.collection("keyring_entries").create({ user: alice.id, channel: channel.id, data: sealedText() }))).toBe(
      400,
    );
    expect(
      await statusOf(mallory.pb.collection("keyring_entries").create({ user: mallory.id, channel: channel.id, data: sealedText() })),
    ).toBe(400);
  });

  it("cannot be moved to another user or channel, and hold only ciphertext", async () => {
    const other = await createChannel(alice, "Other");
    expect(await statusOf(alice.pb.collection("keyring_entries").update(ids.keyring_entries, { user: bob.id }))).toBe(404);
    expect(await statusOf(alice.pb.collection("keyring_entries").update(ids.keyring_entries, { channel: other.id }))).toBe(404);
    expect(await statusOf(alice.pb.collection("keyring_entries").update(ids.keyring_entries, { data: "channel password in clear" }))).toBe(
      400,
    );
    await alice.pb.collection("channels").delete(other.id);
  });

  it("one entry per user and channel", async () => {
    const own = await bob.pb.collection("keyring_entries").create({ user: bob.id, channel: channel.id, data: sealedText() });
    expect(await statusOf(bob.pb.collection("keyring_entries").create({ user: bob.id, channel: channel.id, data: sealedText() }))).toBe(
      400,
    );
    await bob.pb.collection("keyring_entries").delete(own.id);
  });

  it("leaving a channel removes the leaver's entry; deleting a channel removes every entry", async () => {
    const room = await createChannel(alice, "Keyring room");
    expect((await joinChannel(bob, room)).status).toBe(200);
    const bobs = await bob.pb.collection("keyring_entries").create({ user: bob.id, channel: room.id, data: sealedText() });
    const alices = await alice.pb.collection("keyring_entries").create({ user: alice.id, channel: room.id, data: sealedText() });
    const bobMembership = await bob.pb
      .collection("channel_members")
      .getFirstListItem(bob.pb.filter("channel = {:c} && user = {:u}", { c: room.id, u: bob.id }));
    await bob.pb.collection("channel_members").delete(bobMembership.id);
    expect(await statusOf(admin.collection("keyring_entries").getOne(bobs.id))).toBe(404);
    expect((await admin.collection("keyring_entries").getOne(alices.id)).id).toBe(alices.id);
    await alice.pb.collection("channels").delete(room.id);
    expect(await statusOf(admin.collection("keyring_entries").getOne(alices.id))).toBe(404);
  });
});

describe("message_archive", () => {
  it("only the owner reads their entries; nobody changes or deletes them through the API, nor writes one for someone else", async () => {
    expect((await alice.pb.collection("message_archive").getFullList()).map((e) => e.id)).toEqual([ids.message_archive]);
    expect(await bob.pb.collection("message_archive").getFullList()).toHaveLength(0);
    expect(
      await bob.pb.collection("message_archive").getFullList({ filter: bob.pb.filter("owner = {:id}", { id: alice.id }) }),
    ).toHaveLength(0);
    expect(await statusOf(bob.pb.collection("message_archive").getOne(ids.message_archive))).toBe(404);
    expect(await statusOf(alice.pb.collection("message_archive").update(ids.message_archive, { data: sealedText() }))).toBe(403);
    expect(await statusOf(alice.pb.collection("message_archive").delete(ids.message_archive))).toBe(403);
    expect(await statusOf(bob.pb.collection("message_archive").delete(ids.message_archive))).toBe(403);
    const entry = { owner: alice.id, channel: channel.id, message: ids.messages, data: sealedText() };
    expect(await statusOf(bob.pb.collection("message_archive").create(entry))).toBe(403);
    expect(await statusOf(alice.pb.collection("message_archive").create(entry))).toBe(403);
  });
});
