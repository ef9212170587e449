// The API rules of PocketBase's collections, as guests and signed-in users meet them: what a guest
// can do with each collection, accounts and profiles (api-rules-sample.ts holds the sample data).

import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { COLLECTIONS, admin, alice, bob, channel, ids, mallory, sealedText, server, useRulesSample } from "./api-rules-sample";
import { client, fakePublicKey, statusOf } from "./pocketbase";

useRulesSample();

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

  it("a user cannot write their own wrapped keys or iterations directly (only re-wrapped together, through the server's functions)", async () => {
    const before = await admin.collection("users").getOne(alice.id);
    for (const change of [
      { encrypted_ecdh_private_key: 0 },
      { encrypted_rsa_private_key: "\u0000" },
      { kdf_iterations: 200_000 },
      { kdf_iterations: "200000" },
      { "kdf_iterations+": 1 },
    ]) {
      const refused = await alice.pb
        .collection("users")
        .update(alice.id, change)
        .catch((error: { status: number; response: unknown }) => error);
      expect(refused, JSON.stringify(change)).toMatchObject({
        status: 400,
        response: { message: "The account's keys change only through a password change or a recovery." },
      });
    }
    const after = await admin.collection("users").getOne(alice.id);
    for (const field of ["encrypted_ecdh_private_key", "encrypted_rsa_private_key", "kdf_iterations"])
      expect(after[field]).toEqual(before[field]);
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
  it("are readable by the person and those who share a channel with them, by no one else (ADR 0077)", async () => {
    const profile = await bob.pb.collection("profiles").getOne(alice.id);
    expect(profile).toMatchObject({ id: alice.id, username: alice.username });
    expect(profile.ecdh_public_key).toBeTruthy();
    expect(profile.rsa_public_key).toBeTruthy();

    const many = await bob.pb.collection("profiles").getFullList({
      filter: `id = "${alice.id}" || id = "${bob.id}" || id = "${mallory.id}"`,
    });
    expect(many.map((p) => p.id).sort()).toEqual([alice.id, bob.id].sort());
    expect(await statusOf(mallory.pb.collection("profiles").getOne(alice.id))).toBe(404);
    expect((await mallory.pb.collection("profiles").getFullList()).map((p) => p.id)).toEqual([mallory.id]);
  });

  it("carry no private data", async () => {
    const profile = await bob.pb.collection("profiles").getOne(alice.id);
    expect(Object.keys(profile).sort()).toEqual([
      "collectionId",
      "collectionName",
      "created",
      "deactivated",
      "ecdh_public_key",
      "id",
      "role",
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
