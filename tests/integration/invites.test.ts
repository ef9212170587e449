// Invites with limits and removals that stick (docs/decisions/0057-invites-and-bans.md): invites expire,
// run out and can be revoked; a join through one counts a use atomically; a removed member cannot come
// back with an old invite or the password until an admin lifts the ban; guests join only through an
// invite; members cannot do what only admins can; every route answers hostile input with a 4xx.

import { randomBytes } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  fakePublicKey,
  joinChannel,
  post,
  postJson,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";

let server: RunningPocketBase;
let su: PocketBase;
let owner: TestUser; // the workspace's first account
let alice: TestUser; // creates channels
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  server = await startPocketBase();
  su = await superuserClient(server.url, server.superuser);
  owner = await signUpUser(server.url);
  [alice, bob, carol] = await Promise.all([signUpUser(server.url), signUpUser(server.url), signUpUser(server.url)]);
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

const call = (route: string, body: unknown, user?: TestUser) => postJson(server.url, route, body, user?.token);
async function get(route: string, user?: TestUser) {
  const res = await fetch(`${server.url}${route}`, { headers: user ? { Authorization: user.token } : {} });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json: json as Record<string, unknown> };
}

async function invite(user: TestUser, channel: TestChannel, limits: { expires?: string; max_uses?: number } = {}) {
  const res = await call("/api/chat/invites", { channel_id: channel.id, ...limits }, user);
  expect(res.status, res.text).toBe(200);
  return (res.json as { id: string }).id;
}

const joinWith = (user: TestUser, channel: TestChannel, inviteId?: string) =>
  call(
    "/api/chat/channels/join",
    { channel_id: channel.id, verifier: channel.verifier, ecdh_public_key: fakePublicKey(), ...(inviteId ? { invite_id: inviteId } : {}) },
    user,
  );
const preview = async (id: string, user?: TestUser) => (await get(`/api/chat/invites/preview?id=${id}`, user)).json;
const isMember = async (user: TestUser, channel: TestChannel) =>
  (
    await su
      .collection("channel_members")
      .getFullList({ filter: su.filter("channel = {:c} && user = {:u}", { c: channel.id, u: user.id }) })
  ).length === 1;
const auditActions = async (target: string) =>
  (await su.collection("audit_log").getFullList({ filter: su.filter("target = {:t}", { t: target }), sort: "seq" })).map((r) => r.action);
const setRole = (user: TestUser, role: string) => su.collection("profiles").update(user.id, { role });
const remove = (by: TestUser, channel: TestChannel, user: TestUser) =>
  call("/api/chat/channels/members/remove", { channel_id: channel.id, user_id: user.id }, by);

describe("invites with limits", () => {
  it("an invite with one use works once; the next join with it is refused and its page says so", async () => {
    const channel = await createChannel(alice, "One use");
    const id = await invite(alice, channel, { expires: "1d", max_uses: 1 });
    expect(await preview(id)).toMatchObject({ status: "valid", inviter: alice.username, name: "One use", sealed: false });
    expect((await joinWith(bob, channel, id)).status).toBe(200);
    // joining again as a member takes no use and answers as the first join
    expect((await joinWith(bob, channel, id)).status).toBe(200);
    const refused = await joinWith(carol, channel, id);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ message: "This invite has already been used." });
    expect(await isMember(carol, channel)).toBe(false);
    expect(await preview(id)).toMatchObject({ status: "used" });
    expect((await su.collection("invites").getOne(id)).uses).toBe(1);
    expect(await auditActions(id)).toEqual(["invite.created", "invite.used"]);
  });

  it("an expired invite is refused and says so; expiry choices are 1, 7, 30 days or never", async () => {
    const channel = await createChannel(alice);
    const id = await invite(alice, channel, { expires: "7d" });
    const made = await su.collection("invites").getOne(id);
    const days = (Date.parse(made.expires) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    expect(made.max_uses).toBe(0);
    await su.collection("invites").update(id, { expires: new Date(Date.now() - 1000).toISOString().replace("T", " ") });
    expect(await preview(id)).toMatchObject({ status: "expired" });
    const refused = await joinWith(bob, channel, id);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ message: "This invite has expired." });
    expect(await isMember(bob, channel)).toBe(false);
    const never = await invite(alice, channel, { expires: "never", max_uses: 10 });
    expect(await su.collection("invites").getOne(never)).toMatchObject({ expires: "", max_uses: 10 });
  });

  it("a revoked invite is refused; only its creator and the channel's or workspace's admins revoke", async () => {
    const channel = await createChannel(alice);
    expect((await joinChannel(bob, channel)).status).toBe(200);
    const id = await invite(alice, channel);
    const notYours = await call("/api/chat/invites/revoke", { invite_id: id }, bob);
    expect(notYours.status).toBe(403);
    expect((await call("/api/chat/invites/revoke", { invite_id: id }, alice)).status).toBe(200);
    expect((await call("/api/chat/invites/revoke", { invite_id: id }, alice)).status).toBe(200);
    expect(await preview(id)).toMatchObject({ status: "revoked" });
    const refused = await joinWith(carol, channel, id);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ message: "This invite was revoked." });
    expect(await auditActions(id)).toEqual(["invite.created", "invite.revoked"]);
    // bob's own invite: he may revoke it; the owner may revoke any
    const bobs = await invite(bob, channel);
    expect((await call("/api/chat/invites/revoke", { invite_id: bobs }, bob)).status).toBe(200);
    const third = await invite(bob, channel);
    expect((await call("/api/chat/invites/revoke", { invite_id: third }, owner)).status).toBe(200);
  });

  it("concurrent joins through an invite with 10 uses: exactly 10 get in", async () => {
    const channel = await createChannel(alice);
    const id = await invite(alice, channel, { max_uses: 10 });
    const people = await Promise.all(Array.from({ length: 14 }, () => signUpUser(server.url)));
    const answers = await Promise.all(people.map((p) => joinWith(p, channel, id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    expect(
      answers.filter((a) => a.status === 403).every((a) => (a.json as { message: string }).message.includes("already been used")),
    ).toBe(true);
    expect((await su.collection("invites").getOne(id)).uses).toBe(10);
    const members = await su.collection("channel_members").getFullList({ filter: su.filter("channel = {:c}", { c: channel.id }) });
    expect(members).toHaveLength(11);
  });

  it("listing: the channel's admins see its invites, workspace admins every invite, members neither", async () => {
    const channel = await createChannel(alice, "Listed");
    expect((await joinChannel(bob, channel)).status).toBe(200);
    const id = await invite(bob, channel, { max_uses: 1 });
    const listed = await get(`/api/chat/invites?channel_id=${channel.id}`, alice);
    expect(listed.status).toBe(200);
    expect((listed.json.invites as { id: string }[]).find((i) => i.id === id)).toMatchObject({
      created_by_name: bob.username,
      max_uses: 1,
      uses: 0,
      status: "valid",
      channel_name: "Listed",
    });
    expect((await get(`/api/chat/invites?channel_id=${channel.id}`, bob)).status).toBe(403);
    expect((await get("/api/chat/invites", bob)).status).toBe(403);
    expect((await get("/api/chat/invites", alice)).status).toBe(403);
    const all = await get("/api/chat/invites", owner);
    expect(all.status).toBe(200);
    expect((all.json.invites as { id: string }[]).some((i) => i.id === id)).toBe(true);
    expect((await get("/api/chat/invites")).status).toBe(401);
  });

  it("nobody invites to a channel they are not in, nor to a direct conversation", async () => {
    const channel = await createChannel(alice);
    expect((await call("/api/chat/invites", { channel_id: channel.id }, bob)).status).toBe(404);
    expect((await call("/api/chat/invites", { channel_id: channel.id })).status).toBe(401);
  });
});

describe("removal that sticks", () => {
  it("a removed member cannot rejoin with an old invite or the password until an admin lifts the ban", async () => {
    const channel = await createChannel(alice, "Sticky");
    const id = await invite(alice, channel);
    expect((await joinWith(bob, channel, id)).status).toBe(200);
    expect((await remove(carol, channel, bob)).status).toBe(403);
    expect((await remove(alice, channel, bob)).status).toBe(200);
    expect(await isMember(bob, channel)).toBe(false);
    for (const answer of [await joinWith(bob, channel, id), await joinWith(bob, channel)]) {
      expect(answer.status).toBe(403);
      expect(answer.json).toMatchObject({ message: "You were removed from this channel." });
    }
    expect(await preview(id, bob)).toMatchObject({ status: "removed" });
    expect(await isMember(bob, channel)).toBe(false);
    const lift = { channel_id: channel.id, user_id: bob.id };
    expect((await call("/api/chat/channels/bans/lift", lift, carol)).status).toBe(403);
    expect((await call("/api/chat/channels/bans/lift", lift, alice)).status).toBe(200);
    expect((await call("/api/chat/channels/bans/lift", lift, alice)).status).toBe(404);
    expect((await joinWith(bob, channel)).status).toBe(200);
    expect(await auditActions(bob.id)).toEqual(expect.arrayContaining(["member.removed", "ban.lifted"]));
  });

  it("a removed member cannot enter a sealed channel's group by external join either", async () => {
    const channel = await createChannel(alice, "Sealed", { sealed: true });
    expect((await joinChannel(bob, channel)).status).toBe(200);
    expect((await remove(alice, channel, bob)).status).toBe(200);
    const body = {
      channel_id: channel.id,
      verifier: channel.verifier,
      ecdh_public_key: fakePublicKey(),
      epoch: 1,
      commit: randomBytes(64).toString("base64url"),
      group_info: randomBytes(64).toString("base64url"),
    };
    const answer = await call("/api/chat/mls/external-join", body, bob);
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ message: "You were removed from this channel." });
  });

  it("channel admins: the creator names one, who removes members but names nobody; a workspace admin removes anyone", async () => {
    const channel = await createChannel(alice);
    const dave = await signUpUser(server.url);
    for (const user of [bob, carol, dave]) expect((await joinChannel(user, channel)).status).toBe(200);
    const name = (by: TestUser, user: TestUser, admin: unknown) =>
      call("/api/chat/channels/members/admin", { channel_id: channel.id, user_id: user.id, admin }, by);
    expect((await name(bob, bob, true)).status).toBe(403);
    expect((await name(alice, bob, "yes")).status).toBe(400);
    expect((await name(alice, bob, true)).status).toBe(200);
    expect((await name(bob, carol, true)).status).toBe(403);
    expect((await remove(bob, channel, carol)).status).toBe(200);
    const creator = await remove(bob, channel, alice);
    expect(creator.status).toBe(403);
    expect(creator.json).toMatchObject({ message: "The channel creator cannot be removed." });
    const access = await get(`/api/chat/channels/access?channel_id=${channel.id}`, bob);
    expect(access.json).toMatchObject({ manage: "admin", name_admins: false, admins: [bob.id] });
    expect((access.json.bans as { user_id: string }[]).map((b) => b.user_id)).toEqual([carol.id]);
    expect((await get(`/api/chat/channels/access?channel_id=${channel.id}`, dave)).json).toEqual({ manage: "" });
    expect((await get(`/api/chat/channels/access?channel_id=${channel.id}`, await signUpUser(server.url))).status).toBe(404);
    // the workspace's owner is in no channel of alice's and still removes
    expect((await remove(owner, channel, dave)).status).toBe(200);
    expect((await remove(owner, channel, dave)).status).toBe(404);
  });
});

describe("guests", () => {
  it("a guest joins only through an invite, sees only that channel, and invites nobody", async () => {
    const guest = await signUpUser(server.url);
    await setRole(guest, "guest");
    const open = await createChannel(alice, "Not for guests");
    const invited = await createChannel(alice, "Guests welcome");
    const refused = await joinWith(guest, open);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ message: "Guests join channels through an invite." });
    const id = await invite(alice, invited);
    expect((await joinWith(guest, invited, id)).status).toBe(200);
    expect((await guest.pb.collection("channels").getFullList()).map((c) => c.name)).toEqual(["Guests welcome"]);
    expect((await call("/api/chat/invites", { channel_id: invited.id }, guest)).status).toBe(403);
    const sealed = await createChannel(alice, "Sealed", { sealed: true });
    const external = await call(
      "/api/chat/mls/external-join",
      { channel_id: sealed.id, verifier: sealed.verifier, ecdh_public_key: fakePublicKey(), epoch: 1, commit: "AAAA", group_info: "AAAA" },
      guest,
    );
    expect(external.status).toBe(403);
  });
});

describe("hostile input", () => {
  // each route with the fields it reads
  const fields: Record<string, string[]> = {
    "/api/chat/invites": ["channel_id", "expires", "max_uses"],
    "/api/chat/invites/revoke": ["invite_id"],
    "/api/chat/channels/members/remove": ["channel_id", "user_id"],
    "/api/chat/channels/bans/lift": ["channel_id", "user_id"],
    "/api/chat/channels/members/admin": ["channel_id", "user_id", "admin"],
  };
  const posts = Object.keys(fields);
  const gets = ["/api/chat/invites", "/api/chat/invites/preview", "/api/chat/channels/access"];

  function readable(answer: { status: number; text: string }) {
    expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
    expect(answer.status, answer.text).toBeLessThan(500);
    expect(answer.text).not.toMatch(/goroutine|\.go:\d+|TypeError|ReferenceError/);
  }

  it("wrong methods, garbage bodies, wrong types, oversize bodies and unknown ids get a 4xx", async () => {
    const channel = await createChannel(alice);
    for (const route of [...posts, ...gets]) {
      for (const method of ["PUT", "DELETE", "PATCH"]) {
        const res = await fetch(`${server.url}${route}`, {
          method,
          headers: { Authorization: alice.token, "Content-Type": "application/json" },
          body: "{}",
        });
        readable({ status: res.status, text: await res.text() });
      }
    }
    const garbage = ["", "{", "null", "[]", '"x"', "12", '{"__proto__": {"admin": true}}', "<xml/>"];
    for (const route of posts) {
      for (const body of garbage) readable(await post(server.url, route, body, { token: alice.token }));
      for (const value of [0, true, null, [], {}, "x".repeat(5000), "' OR 1=1 --", "abcdefghijklmno"]) {
        for (const field of fields[route]) {
          if ((field === "admin" && typeof value === "boolean") || (field === "max_uses" && value === 0)) continue; // valid
          const body = { channel_id: channel.id, user_id: bob.id, invite_id: "abcdefghijklmno", admin: true, [field]: value };
          readable(await call(route, body, alice));
        }
      }
      readable(await post(server.url, route, `{"x":"${"a".repeat(64 * 1024)}"}`, { token: alice.token }));
      readable(await call(route, {}, undefined));
    }
    for (const query of ["", "?id=", "?id=abcdefghijklmno", "?id=' OR 1=1", "?channel_id=x", `?channel_id=${"a".repeat(3000)}`]) {
      for (const route of gets) {
        const answer = await get(`${route}${query}`, alice);
        if (route === "/api/chat/invites" && query === "") continue; // alice is no admin: 403 (above)
        readable(answer);
      }
    }
  });
});
