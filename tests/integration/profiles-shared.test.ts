// Profiles only to those who share a channel or conversation (issue 47, ADR 0077): straight from the
// PocketBase we build, a signed-in stranger gets no one's profile but their own, by list or by id;
// channel-mates see each other; the names the pages show (GET /api/chat/profiles) cover exactly the
// people the caller may know: a former channel-mate on their old messages, a requester, someone blocked.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { colleagues, postJson, postMessage, signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";
import { encodeKeyPackage, newKeyPackage } from "../../app/conversation/mls/mls";
import { b64 } from "./mls-helpers";

let server: RunningPocketBase;
let alice: TestUser; // in a channel with Bob and (once) Dave
let bob: TestUser;
let carol: TestUser; // shares nothing with anyone
let dave: TestUser; // posted in Alice's channel, then left it

type Listed = { items: { id: string; username: string }[]; totalItems: number };
type Known = { profiles: { id: string; username?: string; ecdh_public_key: string; deleted?: boolean }[] };

const raw = (user: TestUser | null, path: string) =>
  fetch(`${server.url}${path}`, { headers: user ? { Authorization: user.token } : {} }).then(async (res) => ({
    status: res.status,
    body: (await res.json()) as unknown,
  }));
const listed = async (user: TestUser, query = "perPage=500") => {
  const res = await raw(user, `/api/collections/profiles/records?${query}`);
  expect(res.status).toBe(200);
  return (res.body as Listed).items.map((p) => p.username).sort();
};
const known = async (user: TestUser, ...people: TestUser[]) => {
  const res = await raw(user, `/api/chat/profiles?ids=${people.map((p) => p.id).join(",")}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as Known).profiles.map((p) => p.username).sort();
};

async function withPackages(user: TestUser) {
  const packages = await Promise.all([1, 2, 3].map((i) => newKeyPackage(`${user.id}:dev${i}`)));
  const body = {
    device: `${user.username}-laptop`,
    one_time: packages.slice(0, 2).map((p) => b64(encodeKeyPackage(p))),
    last_resort: b64(encodeKeyPackage(packages[2])),
  };
  expect((await postJson(server.url, "/api/chat/mls/key-packages", body, user.token)).status).toBe(200);
}

beforeAll(async () => {
  server = await startPocketBase();
  [alice, bob, carol, dave] = [
    await signUpUser(server.url),
    await signUpUser(server.url),
    await signUpUser(server.url),
    await signUpUser(server.url),
  ];
  const channel = await colleagues(alice, bob, dave);
  await postMessage(dave, channel.id);
  const membership = await dave.pb.collection("channel_members").getFirstListItem(`channel = "${channel.id}" && user = "${dave.id}"`);
  await dave.pb.collection("channel_members").delete(membership.id);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe("profiles straight from PocketBase", () => {
  it("a signed-in stranger lists only their own profile and gets no one else's by id", async () => {
    expect(await listed(carol)).toEqual([carol.username]);
    expect(await listed(carol, `filter=${encodeURIComponent(`username = "${alice.username}"`)}`)).toEqual([]);
    for (const other of [alice, bob, dave]) expect((await raw(carol, `/api/collections/profiles/records/${other.id}`)).status).toBe(404);
    expect((await raw(carol, `/api/collections/profiles/records/${carol.id}`)).status).toBe(200);
    // the collection's id names it as well as its name
    const collectionId = (await carol.pb.collection("profiles").getOne<{ collectionId: string }>(carol.id)).collectionId;
    expect((await raw(carol, `/api/collections/${collectionId}/records/${alice.id}`)).status).toBe(404);
    // nor through another collection's filter
    const probe = await raw(
      carol,
      `/api/collections/users/records?filter=${encodeURIComponent(`@collection.profiles.username ?= "${alice.username}"`)}`,
    );
    expect((probe.body as Listed).items ?? []).toEqual([]);
    // signed out: nothing
    expect(((await raw(null, "/api/collections/profiles/records")).body as Listed).items).toEqual([]);
  });

  it("people who share a channel see each other (and page, filter and sort as before); one who left is no longer listed", async () => {
    expect(await listed(alice)).toEqual([alice.username, bob.username].sort());
    expect(await listed(bob)).toEqual([alice.username, bob.username].sort());
    expect(await listed(dave)).toEqual([dave.username]);
    const page = await raw(alice, `/api/collections/profiles/records?perPage=1&sort=-username&filter=${encodeURIComponent('id != ""')}`);
    expect((page.body as Listed).totalItems).toBe(2);
    expect((page.body as Listed).items.map((p) => p.username)).toEqual([[alice.username, bob.username].sort()[1]]);
    const bobs = await raw(alice, `/api/collections/profiles/records/${bob.id}`);
    expect([bobs.status, (bobs.body as { username: string }).username]).toEqual([200, bob.username]);
    expect((await raw(alice, `/api/collections/profiles/records/${dave.id}`)).status).toBe(404);
    // by the collection's id too; and as in PocketBase's own lists, only superusers filter by other collections
    const collectionId = (bobs.body as { collectionId: string }).collectionId;
    expect((await raw(alice, `/api/collections/${collectionId}/records/${bob.id}`)).status).toBe(200);
    const joined = encodeURIComponent(`@collection.channel_members.user ?= "${carol.id}"`);
    expect((await raw(alice, `/api/collections/profiles/records?filter=${joined}`)).status).toBe(403);
  });
});

describe("the names the pages show (GET /api/chat/profiles)", () => {
  it("name the caller's channel-mates and a former channel-mate on their old messages, never a stranger", async () => {
    expect(await known(alice, alice, bob, carol, dave)).toEqual([alice.username, bob.username, dave.username].sort());
    expect(await known(carol, alice, bob, dave)).toEqual([]);
    expect(await known(dave, alice, bob)).toEqual([]);
  });

  it("name a requester to the person asked, and someone blocked to whoever blocked them", async () => {
    await withPackages(alice);
    // Carol finds Alice by her exact username (the DM picker's look-up): that one person, nothing else
    const found = await postJson(server.url, "/api/chat/users/lookup", { username: alice.username }, carol.token);
    expect(found.json).toEqual({ user: { id: alice.id, username: alice.username } });
    const started = await postJson(server.url, "/api/chat/direct", { id: randomUUID(), participants: [alice.id] }, carol.token);
    expect(started.status, started.text).toBe(200);
    const conversation = (started.json as { id: string }).id;
    expect(await known(alice, carol)).toEqual([carol.username]);
    expect(await known(bob, carol)).toEqual([]);
    const blocked = await postJson(
      server.url,
      "/api/chat/direct/requests/answer",
      { channel_id: conversation, answer: "block" },
      alice.token,
    );
    expect(blocked.status, blocked.text).toBe(200);
    expect(await known(alice, carol)).toEqual([carol.username]);
  });

  it("answers a clear 400 for ids that are not user ids, 401 signed out", async () => {
    for (const ids of ["", "abc", "../x", Array.from({ length: 101 }, (_, i) => `u${String(i).padStart(14, "0")}`).join(",")]) {
      const res = await raw(alice, `/api/chat/profiles?ids=${encodeURIComponent(ids)}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: "The ids must be 1 to 100 user ids separated by commas." });
    }
    expect((await raw(null, `/api/chat/profiles?ids=${alice.id}`)).status).toBe(401);
  });
});
