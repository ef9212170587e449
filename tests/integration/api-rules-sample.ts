// The sample data of the API-rule tests (api-rules-*.test.ts): one PocketBase per test file with
// three users and one record of every collection, all belonging to alice.

import { randomBytes } from "node:crypto";
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, expect } from "vitest";
import {
  createChannel,
  fakeCiphertext,
  joinChannel,
  postMessage,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";

/** Ciphertext as the browser stores it in the keyring and the settings vault (base64url). */
export const sealedText = () => randomBytes(60).toString("base64url");

// The SDK's realtime client needs an EventSource; Node 20 has none.
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

export let server: RunningPocketBase;
export let admin: PocketBase;
export let alice: TestUser; // owns the sample data
export let bob: TestUser; // member of alice's channel
export let mallory: TestUser; // signed in, but no member of anything

export let channel: TestChannel;
export let verifierHash: string;
export const ids: Record<string, string> = {};

export const COLLECTIONS = [
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
  "message_archive",
] as const;

/** Starts the PocketBase and writes the sample before the calling test file's tests, and stops it after them. */
export function useRulesSample(): void {
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
    // The message archive (ADR 0048) is written only by POST /api/chat/archive; here the superuser writes one entry.
    const archived = await admin
      .collection("message_archive")
      .create({ owner: alice.id, channel: channel.id, message: message.id, data: sealedText() });
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
      message_archive: archived.id,
      // written only by PocketBase itself, at sign-up (pocketbase/devices.go)
      sessions: (await admin.collection("sessions").getFirstListItem(admin.filter("user = {:u}", { u: alice.id }))).id,
    });

    verifierHash = (await admin.collection("channels").getOne(channel.id)).verifier_hash as string;
    expect(verifierHash).toMatch(/^[0-9a-f]{64}$/);
  });

  afterAll(async () => {
    await server?.stop();
  });
}
