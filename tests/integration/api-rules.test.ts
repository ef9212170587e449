import { randomBytes, randomUUID } from "node:crypto";
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createChannel,
  fakeCiphertext,
  fakePublicKey,
  joinChannel,
  postMessage,
  signUpUser,
  startPocketBase,
  statusOf,
  superuserClient,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";

/** Ciphertext as the browser stores it in the keyring and the settings vault (base64url). */
const sealedText = () => randomBytes(60).toString("base64url");

// The SDK's realtime client needs an EventSource; Node 20 has none.
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

let server: RunningPocketBase;
let admin: PocketBase;
let alice: TestUser; // owns the sample data
let bob: TestUser; // member of alice's channel
let mallory: TestUser; // signed in, but no member of anything

let channel: TestChannel;
let verifierHash: string;
const ids: Record<string, string> = {};

const COLLECTIONS = [
  "users",
  "profiles",
  "channels",
  "channel_members",
  "messages",
  "file_attachments",
  "link_previews",
  "whatsapp_contacts",
  "keyring_entries",
  "read_positions",
  "key_pins",
  "key_pin_heads",
  "mls_key_packages",
  "mls_groups",
  "mls_commits",
  "sessions",
] as const;

beforeAll(async () => {
  server = await startPocketBase();
  admin = await superuserClient(server.url, server.superuser);
  [alice, bob, mallory] = await Promise.all([signUpUser(server.url), signUpUser(server.url), signUpUser(server.url)]);

  // one record of every collection, all belonging to alice
  channel = await createChannel(alice, "Rules");
  expect((await joinChannel(bob, channel)).status).toBe(200);
  const message = await postMessage(alice, channel.id);
  const attachment = await alice.pb.collection("file_attachments").create({
    message: message.id,
    channel: channel.id,
    file_name: fakeCiphertext(),
    file_size: 4,
    file_type: "application/octet-stream",
    uploaded_by: alice.id,
    file: new File([new Uint8Array([1, 2, 3, 4])], "blob.bin"),
  });
  const preview = await alice.pb.collection("link_previews").create({
    message: message.id,
    channel: channel.id,
    url: fakeCiphertext(),
    title: fakeCiphertext(),
    description: fakeCiphertext(),
    image_url: fakeCiphertext(),
  });
  const contact = await alice.pb.collection("whatsapp_contacts").create({
    user: alice.id,
    name: fakeCiphertext(),
    phone_number: fakeCiphertext(),
  });
  const keyringEntry = await alice.pb.collection("keyring_entries").create({ user: alice.id, channel: channel.id, data: sealedText() });
  const readPosition = await alice.pb
    .collection("read_positions")
    .create({ user: alice.id, channel: channel.id, last_read: message.created });
  // Key pins and their head are written only by POST /api/chat/pins, together; here the superuser writes one of each.
  const pin = await admin.collection("key_pins").create({ owner: alice.id, subject: bob.id, data: sealedText() });
  const pinHead = await admin.collection("key_pin_heads").create({ owner: alice.id, counter: 1, data: sealedText() });
  // Sealed channels' delivery records are written only by the /api/chat/mls/ routes; here the superuser writes one of each.
  const keyPackage = await admin
    .collection("mls_key_packages")
    .create({ user: alice.id, device: "alice-device", data: "AAAA", last_resort: true });
  const group = await admin.collection("mls_groups").create({ channel: channel.id, epoch: 1, group_info: "AAAA" });
  const commit = await admin.collection("mls_commits").create({ channel: channel.id, epoch: 0, sender: alice.id, data: "AAAA" });
  const membership = await admin
    .collection("channel_members")
    .getFirstListItem(admin.filter("channel = {:c} && user = {:u}", { c: channel.id, u: alice.id }));

  Object.assign(ids, {
    users: alice.id,
    profiles: alice.id,
    channels: channel.id,
    channel_members: membership.id,
    messages: message.id,
    file_attachments: attachment.id,
    link_previews: preview.id,
    whatsapp_contacts: contact.id,
    keyring_entries: keyringEntry.id,
    read_positions: readPosition.id,
    key_pins: pin.id,
    key_pin_heads: pinHead.id,
    mls_key_packages: keyPackage.id,
    mls_groups: group.id,
    mls_commits: commit.id,
    // written only by PocketBase itself, at sign-up (pocketbase/devices.go)
    sessions: (await admin.collection("sessions").getFirstListItem(admin.filter("user = {:u}", { u: alice.id }))).id,
  });

  verifierHash = (await admin.collection("channels").getOne(channel.id)).verifier_hash as string;
  expect(verifierHash).toMatch(/^[0-9a-f]{64}$/);
});

afterAll(async () => {
  await server?.stop();
});

describe("guests", () => {
  const guest = () => client(server.url);

  it.each(COLLECTIONS)("list nothing from %s", async (name) => {
    const list = await guest().collection(name).getList(1, 50);
    expect(list.items).toHaveLength(0);
    expect(list.totalItems).toBe(0);
  });

  it.each(COLLECTIONS)("cannot view a record of %s", async (name) => {
    expect(await statusOf(guest().collection(name).getOne(ids[name]))).toBe(404);
  });

  it.each(COLLECTIONS)("cannot create in %s", async (name) => {
    const status = await statusOf(
      guest()
        .collection(name)
        .create({
          user: alice.id,
          sender: alice.id,
          channel: channel.id,
          name: "x",
          phone_number: "x",
          encrypted_content: "x",
          email: `guest-${randomUUID()}@example.test`,
          password: "guest-password",
          passwordConfirm: "guest-password",
        }),
    );
    expect([400, 403]).toContain(status);
  });

  it.each(COLLECTIONS)("cannot delete a record of %s", async (name) => {
    expect([403, 404]).toContain(await statusOf(guest().collection(name).delete(ids[name])));
  });
});

describe("accounts (users)", () => {
  it("a user reads only their own account record", async () => {
    const list = await bob.pb.collection("users").getFullList();
    expect(list.map((u) => u.id)).toEqual([bob.id]);
    expect(await statusOf(bob.pb.collection("users").getOne(alice.id))).toBe(404);

    // not even through a filter or an expand
    const filtered = await bob.pb.collection("users").getList(1, 10, {
      filter: bob.pb.filter("id = {:id}", { id: alice.id }),
    });
    expect(filtered.items).toHaveLength(0);
    const members = await bob.pb.collection("channel_members").getFullList({ expand: "user" });
    const aliceRow = members.find((m) => m.user === alice.id)!;
    expect(aliceRow.expand?.user).toBeUndefined();
  });

  it("a user's own record carries the wrapped keys and settings", async () => {
    const own = await alice.pb.collection("users").getOne(alice.id);
    expect(own.encrypted_ecdh_private_key).toBeTruthy();
    expect(own.encrypted_settings).toBe("");
    // Private settings exist only as ciphertext: no clear column holds keywords, cities or a language.
    for (const column of [
      "translation_language",
      "notify_keywords",
      "world_clock_cities",
      "notify_on_mention",
      "desktop_notifications_enabled",
    ]) {
      expect(own).not.toHaveProperty(column);
    }
  });

  it("a user updates their own settings but not another user's", async () => {
    const sealed = sealedText();
    const updated = await alice.pb.collection("users").update(alice.id, { encrypted_settings: sealed, email_notifications_enabled: true });
    expect(updated).toMatchObject({ encrypted_settings: sealed, email_notifications_enabled: true });

    expect(await statusOf(bob.pb.collection("users").update(alice.id, { encrypted_settings: sealedText() }))).toBe(404);
    expect(await statusOf(bob.pb.collection("users").update(alice.id, { encrypted_ecdh_private_key: "x" }))).toBe(404);
    expect(await statusOf(alice.pb.collection("users").update(alice.id, { encrypted_settings: "plain text keywords" }))).toBe(400);
    const after = await admin.collection("users").getOne(alice.id);
    expect(after.encrypted_settings).toBe(sealed);
  });

  it("a user cannot give themselves a verified flag or another email directly", async () => {
    expect(await statusOf(alice.pb.collection("users").update(alice.id, { verified: true }))).toBe(400);
    expect(await statusOf(alice.pb.collection("users").update(alice.id, { email: `x-${alice.email}` }))).toBe(400);
  });

  it("nobody creates accounts directly, only through sign-up", async () => {
    const attempt = {
      email: `direct-${randomUUID()}@example.test`,
      password: "direct-password",
      passwordConfirm: "direct-password",
    };
    expect(await statusOf(client(server.url).collection("users").create(attempt))).toBe(403);
    expect(await statusOf(alice.pb.collection("users").create(attempt))).toBe(403);
  });

  it("nobody deletes accounts through the API", async () => {
    expect(await statusOf(alice.pb.collection("users").delete(alice.id))).toBe(403);
    expect(await statusOf(bob.pb.collection("users").delete(alice.id))).toBe(403);
  });
});

describe("profiles", () => {
  it("are readable by any signed-in user", async () => {
    const profile = await mallory.pb.collection("profiles").getOne(alice.id);
    expect(profile).toMatchObject({ id: alice.id, username: alice.username });
    expect(profile.ecdh_public_key).toBeTruthy();
    expect(profile.rsa_public_key).toBeTruthy();

    const many = await mallory.pb.collection("profiles").getFullList({
      filter: `id = "${alice.id}" || id = "${bob.id}"`,
    });
    expect(many.map((p) => p.id).sort()).toEqual([alice.id, bob.id].sort());
  });

  it("carry no private data", async () => {
    const profile = await mallory.pb.collection("profiles").getOne(alice.id);
    expect(Object.keys(profile).sort()).toEqual([
      "collectionId",
      "collectionName",
      "created",
      "ecdh_public_key",
      "id",
      "rsa_public_key",
      "updated",
      "username",
    ]);
  });

  it("cannot be created, changed or deleted by anyone but the sign-up hook", async () => {
    expect(await statusOf(alice.pb.collection("profiles").update(alice.id, { rsa_public_key: fakePublicKey() }))).toBe(403);
    expect(await statusOf(bob.pb.collection("profiles").update(alice.id, { username: "stolen" }))).toBe(403);
    expect(await statusOf(alice.pb.collection("profiles").delete(alice.id))).toBe(403);
    expect(
      await statusOf(
        mallory.pb.collection("profiles").create({
          id: mallory.id,
          username: "second",
          ecdh_public_key: "k",
          rsa_public_key: "k",
        }),
      ),
    ).toBe(403);
  });
});

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
