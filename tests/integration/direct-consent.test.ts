import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  colleagues,
  post,
  postJson,
  fakeSealed,
  signUpUser,
  startPocketBase,
  statusOf,
  type RawResponse,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";
import { encodeKeyPackage, groupInfo, newGroup, newKeyPackage } from "../../app/conversation/mls/mls";
import { b64 } from "./mls-helpers";

// Direct messages with consent (pb_hooks/requests.pb.js, pb_hooks/lib/consent.js, ADR 0052), as an
// attacker with an ordinary account and raw HTTP against the PocketBase we build.
let server: RunningPocketBase;

const start = (user: TestUser, participants: string[]) =>
  postJson(server.url, "/api/chat/direct", { id: randomUUID(), participants }, user.token);
const answer = (user: TestUser, channelId: string, what: string) =>
  postJson(server.url, "/api/chat/direct/requests/answer", { channel_id: channelId, answer: what }, user.token);
const claim = (user: TestUser, userId: string, channelId: string) =>
  postJson(server.url, "/api/chat/mls/key-packages/claim", { user_id: userId, channel_id: channelId }, user.token);
const lookup = (user: TestUser, username: string) => postJson(server.url, "/api/chat/users/lookup", { username }, user.token);
const idOf = (res: RawResponse) => (res.json as { id: string }).id;
const requestsOf = (user: TestUser) =>
  user.pb.collection("direct_requests").getFullList<{ id: string; channel: string; requester: string }>();
const channelIdsOf = async (user: TestUser) => (await user.pb.collection("channels").getFullList({ fields: "id" })).map((c) => c.id);
const isMember = async (user: TestUser, channelId: string) =>
  (await user.pb.collection("channel_members").getFullList({ filter: `channel = "${channelId}" && user = "${user.id}"` })).length > 0;

async function withPackages(user: TestUser) {
  const packages = await Promise.all([1, 2, 3].map((i) => newKeyPackage(`${user.id}:dev${i}`)));
  const stored = await postJson(
    server.url,
    "/api/chat/mls/key-packages",
    {
      device: `${user.username}-laptop`,
      one_time: packages.slice(0, 2).map((p) => b64(encodeKeyPackage(p))),
      last_resort: b64(encodeKeyPackage(packages[2])),
    },
    user.token,
  );
  expect(stored.status, stored.text).toBe(200);
}

beforeAll(async () => {
  server = await startPocketBase();
});

afterAll(async () => {
  await server?.stop();
});

describe("direct messages with consent", () => {
  it("a stranger's DM is a request: not listed, no messages, no unread, its claims refused (409) until accepted", async () => {
    const [mallory, bob, carol] = await Promise.all([1, 2, 3].map(() => signUpUser(server.url)));
    await withPackages(bob);
    await colleagues(mallory, carol);
    const started = await start(mallory, [bob.id]);
    expect(started.status, started.text).toBe(200);
    const id = idOf(started);
    const info = b64(await groupInfo(await newGroup(id, await newKeyPackage(`${mallory.id}:mallory-1:proof`))));
    expect((await postJson(server.url, "/api/chat/mls/groups", { channel_id: id, group_info: info }, mallory.token)).status).toBe(200);
    await mallory.pb.collection("messages").create({ channel: id, sender: mallory.id, encrypted_content: fakeSealed(id, 0), epoch: 0 });

    // Bob has a request, and nothing of the conversation.
    expect((await requestsOf(bob)).map((r) => [r.channel, r.requester])).toEqual([[id, mallory.id]]);
    expect(await channelIdsOf(bob)).not.toContain(id);
    expect(await statusOf(bob.pb.collection("channels").getOne(id))).toBe(404);
    expect(await bob.pb.collection("messages").getFullList({ filter: `channel = "${id}"` })).toHaveLength(0);
    const unread = await bob.pb.send<{ unread: { channelId: string }[] }>("/api/chat/unread", {});
    expect(unread.unread.map((u) => u.channelId)).not.toContain(id);
    expect(await isMember(bob, id)).toBe(false);
    // Mallory's view lists only herself as a member, and her claim of Bob's packages is refused.
    const members = await mallory.pb.collection("channel_members").getFullList({ filter: `channel = "${id}"` });
    expect(members.map((m) => m.user)).toEqual([mallory.id]);
    const refused = await claim(mallory, bob.id, id);
    expect(refused.status).toBe(409);
    expect((refused.json as { message: string }).message).toBe(
      "This person has not accepted the conversation yet: their devices can be added once they accept.",
    );
    expect(await bob.pb.collection("mls_key_packages").getFullList({ filter: "last_resort = false" })).toHaveLength(2);
    // A colleague of Mallory's is a member at once.
    const withCarol = await start(mallory, [carol.id]);
    expect(await isMember(carol, idOf(withCarol))).toBe(true);
    expect(await requestsOf(carol)).toHaveLength(0);

    // Accepted: Bob is a member, reads the conversation, and Mallory's claim works.
    expect((await answer(bob, id, "accept")).status).toBe(200);
    expect(await isMember(bob, id)).toBe(true);
    expect(await requestsOf(bob)).toHaveLength(0);
    expect(await bob.pb.collection("messages").getFullList({ filter: `channel = "${id}"` })).toHaveLength(1);
    const claimed = await claim(mallory, bob.id, id);
    expect(claimed.status, claimed.text).toBe(200);
    expect((claimed.json as { key_packages: unknown[] }).key_packages).toHaveLength(1);
    expect((await answer(bob, id, "accept")).status).toBe(404);
    // Consent both ways: a later group DM of Mallory's with Bob makes him a member at once.
    const group = await start(mallory, [bob.id, carol.id]);
    expect(await isMember(bob, idOf(group))).toBe(true);
  });

  it("a declined request is gone; the requester learns nothing more than before", async () => {
    const [eve, bob] = await Promise.all([1, 2].map(() => signUpUser(server.url)));
    const id = idOf(await start(eve, [bob.id]));
    const pending = await claim(eve, bob.id, id);
    expect((await answer(bob, id, "decline")).status).toBe(200);
    expect(await requestsOf(bob)).toHaveLength(0);
    expect(await isMember(bob, id)).toBe(false);
    expect(await channelIdsOf(bob)).not.toContain(id);
    // The same answer to Eve as while it waited.
    const after = await claim(eve, bob.id, id);
    expect([after.status, after.text]).toEqual([pending.status, pending.text]);
    // (answered already, on another device: said in words a person can act on)
    const again = await answer(bob, id, "decline");
    expect([again.status, again.json]).toEqual([
      404,
      expect.objectContaining({ message: "This request is no longer waiting: it was answered on another device, or withdrawn." }),
    ]);
  });

  it("Block: the blocked person's look-up and DMs find nobody, exactly like an unknown user; Unblock ends it", async () => {
    const [frank, bob, carol] = await Promise.all([1, 2, 3].map(() => signUpUser(server.url)));
    await colleagues(frank, carol);
    const id = idOf(await start(frank, [bob.id]));
    const group = idOf(await start(frank, [bob.id, carol.id]));
    expect((await requestsOf(bob)).map((r) => r.channel).sort()).toEqual([id, group].sort());
    expect((await lookup(frank, bob.username)).json).toEqual({ user: { id: bob.id, username: bob.username } });

    expect((await answer(bob, id, "block")).status).toBe(200);
    // Every request of Frank's goes with it, and Bob lists Frank as blocked.
    expect(await requestsOf(bob)).toHaveLength(0);
    expect((await bob.pb.collection("blocks").getFullList()).map((b) => b.blocked)).toEqual([frank.id]);
    expect(await frank.pb.collection("blocks").getFullList()).toHaveLength(0);

    const unknownName = await lookup(frank, "nobody_by_this_name");
    const started = Date.now();
    const blockedName = await lookup(frank, bob.username);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect([blockedName.status, blockedName.json]).toEqual([unknownName.status, unknownName.json]);
    expect(blockedName.json).toEqual({ user: null });

    const unknownUser = await start(frank, ["zzzzzzzzzzzzzzz"]);
    const blockedUser = await start(frank, [bob.id]);
    expect(blockedUser.status).toBe(404);
    expect([blockedUser.status, blockedUser.json]).toEqual([unknownUser.status, unknownUser.json]);
    expect((blockedUser.json as { message: string }).message).toBe("User not found");
    const added = await postJson(server.url, "/api/chat/direct/add", { channel_id: group, participants: [bob.id] }, frank.token);
    expect([added.status, (added.json as { message: string }).message]).toEqual([404, "User not found"]);
    const bigger = await start(frank, [carol.id, bob.id]);
    expect(bigger.status).toBe(404);
    expect(await requestsOf(bob)).toHaveLength(0);
    expect(await channelIdsOf(bob)).toHaveLength(0);
    // Frank's data export says nothing of it (nor of his requests); Bob's lists his block.
    const exported = async (user: TestUser) =>
      (await (await fetch(`${server.url}/api/chat/account/export`, { headers: { Authorization: user.token } })).json()) as {
        other: Record<string, { blocked?: string }[]>;
      };
    const franks = (await exported(frank)).other;
    for (const collection of ["blocks", "direct_requests", "direct_left"]) expect(franks[collection] ?? []).toEqual([]);
    // (his own consents only: to the people he added)
    expect((franks.direct_consents ?? []).every((c) => (c as { user?: string }).user === frank.id)).toBe(true);
    expect((await exported(bob)).other.blocks.map((b) => b.blocked)).toEqual([frank.id]);
    // Unblock ends the block.
    expect((await postJson(server.url, "/api/chat/users/unblock", { user_id: frank.id }, bob.token)).status).toBe(200);
    expect((await lookup(frank, bob.username)).json).toEqual({ user: { id: bob.id, username: bob.username } });
    const twice = await postJson(server.url, "/api/chat/users/unblock", { user_id: frank.id }, bob.token);
    expect([twice.status, twice.json]).toEqual([404, expect.objectContaining({ message: "This person is not blocked." })]);
  });

  it("the picker's suggestions leave out someone who blocked the caller, also once they share a channel", async () => {
    const [frank, bob, carol] = await Promise.all([1, 2, 3].map(() => signUpUser(server.url)));
    const people = async (user: TestUser) => {
      const res = await fetch(`${server.url}/api/chat/people`, { headers: { Authorization: user.token } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { ids: string[] }).ids.sort();
    };
    expect((await answer(bob, idOf(await start(frank, [bob.id])), "block")).status).toBe(200);
    await colleagues(frank, bob, carol);
    expect(await people(frank)).toEqual([carol.id]);
    expect(await people(bob)).toEqual([carol.id, frank.id].sort());
    expect(await people(carol)).toEqual([bob.id, frank.id].sort());
    expect((await fetch(`${server.url}/api/chat/people`)).status).toBe(401);
  });

  it("leaving a one-to-one: starting it again makes a request, not a membership, also between colleagues", async () => {
    const [alice, bob] = await Promise.all([1, 2].map(() => signUpUser(server.url)));
    const id = idOf(await start(alice, [bob.id]));
    expect((await answer(bob, id, "accept")).status).toBe(200);
    const own = await bob.pb.collection("channel_members").getFirstListItem(`channel = "${id}" && user = "${bob.id}"`);
    expect(await statusOf(bob.pb.collection("channel_members").delete(own.id))).toBe(200);

    const again = await start(alice, [bob.id]);
    expect(again.json).toEqual({ id, existing: true });
    expect(await isMember(bob, id)).toBe(false);
    expect((await requestsOf(bob)).map((r) => r.channel)).toEqual([id]);
    expect((await claim(alice, bob.id, id)).status).toBe(409);
    // Accepting again brings him back.
    expect((await answer(bob, id, "accept")).status).toBe(200);
    expect(await isMember(bob, id)).toBe(true);
    // The same between colleagues: sharing a channel does not re-add someone who left.
    const [carol, dan] = await Promise.all([1, 2].map(() => signUpUser(server.url)));
    await colleagues(carol, dan);
    const theirs = idOf(await start(carol, [dan.id]));
    expect(await isMember(dan, theirs)).toBe(true);
    const dans = await dan.pb.collection("channel_members").getFirstListItem(`channel = "${theirs}" && user = "${dan.id}"`);
    await dan.pb.collection("channel_members").delete(dans.id);
    expect((await start(carol, [dan.id])).json).toEqual({ id: theirs, existing: true });
    expect(await isMember(dan, theirs)).toBe(false);
    expect((await requestsOf(dan)).map((r) => r.channel)).toEqual([theirs]);
    // ...while a new group of Carol's with him is his at once (they are colleagues).
    expect(await isMember(dan, idOf(await start(carol, [dan.id, alice.id])))).toBe(true);
    // Bob starting it himself after leaving is his own choice: he is back at once.
    const mine = await bob.pb.collection("channel_members").getFirstListItem(`channel = "${id}" && user = "${bob.id}"`);
    await bob.pb.collection("channel_members").delete(mine.id);
    expect((await start(bob, [alice.id])).json).toEqual({ id, existing: true });
    expect(await isMember(bob, id)).toBe(true);
  });

  it("hostile input to the new routes and collections: 4xx, never 5xx, and nothing changes", async () => {
    const [mallory, bob, carol] = await Promise.all([1, 2, 3].map(() => signUpUser(server.url)));
    const id = idOf(await start(mallory, [bob.id]));
    const routes = ["/api/chat/direct/requests/answer", "/api/chat/users/unblock"];
    const statuses: number[] = [];
    for (const route of routes) {
      for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
        statuses.push((await fetch(`${server.url}${route}`, { method, headers: { Authorization: bob.token } })).status);
      }
      statuses.push((await postJson(server.url, route, { channel_id: id, answer: "accept", user_id: mallory.id })).status); // no token
      for (const body of ["not json", "[1,2]", "null", '"x"', "{", "\u0000"])
        statuses.push((await post(server.url, route, body, { token: bob.token })).status);
      const huge = await post(server.url, route, JSON.stringify({ channel_id: id, answer: "accept", pad: "a".repeat(2_000_000) }), {
        token: bob.token,
      });
      statuses.push(huge.status);
    }
    for (const body of [
      {},
      { channel_id: "x", answer: "accept" },
      { channel_id: id },
      { channel_id: id, answer: "yes" },
      { channel_id: id, answer: ["accept"] },
      { channel_id: [id], answer: "accept" },
      { channel_id: "' OR 1=1 --", answer: "block" },
    ])
      statuses.push((await postJson(server.url, "/api/chat/direct/requests/answer", body, bob.token)).status);
    for (const body of [{}, { user_id: "x" }, { user_id: ["a"] }, { user_id: "' OR 1=1 --" }])
      statuses.push((await postJson(server.url, "/api/chat/users/unblock", body, bob.token)).status);
    expect(
      statuses.every((s) => s >= 400 && s < 500),
      statuses.join(","),
    ).toBe(true);

    // Another user's request: neither the requester nor a third person answers it for Bob.
    for (const user of [mallory, carol])
      for (const what of ["accept", "decline", "block"]) expect((await answer(user, id, what)).status).toBe(404);
    expect(await isMember(carol, id)).toBe(false);
    expect((await requestsOf(bob)).map((r) => r.channel)).toEqual([id]);
    // Only Bob sees his request; nobody writes requests, consents or blocks through the collections.
    expect(await requestsOf(mallory)).toHaveLength(0);
    expect(await requestsOf(carol)).toHaveLength(0);
    const request = (await requestsOf(bob))[0];
    expect(await statusOf(mallory.pb.collection("direct_requests").getOne(request.id))).toBe(404);
    for (const user of [mallory, bob]) {
      expect([400, 403]).toContain(
        await statusOf(user.pb.collection("direct_requests").create({ channel: id, user: carol.id, requester: user.id })),
      );
      expect([403, 404]).toContain(await statusOf(user.pb.collection("direct_requests").delete(request.id)));
      expect([403, 404]).toContain(await statusOf(user.pb.collection("direct_requests").update(request.id, { user: carol.id })));
      expect([400, 403]).toContain(await statusOf(user.pb.collection("direct_consents").create({ user: bob.id, peer: mallory.id })));
      expect([403, 404]).toContain(await statusOf(user.pb.collection("direct_consents").getFullList()));
      expect([400, 403]).toContain(await statusOf(user.pb.collection("blocks").create({ user: bob.id, blocked: mallory.id })));
    }
    expect((await requestsOf(bob)).map((r) => r.channel)).toEqual([id]);
    expect(await isMember(bob, id)).toBe(false);
  });
});
