// Changing a classic channel's password (docs/decisions/0060-changing-the-channel-password.md): only a
// channel admin may; the old password (and every invite link, which carries it) no longer joins; each
// other member gets the new password sealed to them (the server stores what it cannot open); a sealed
// channel has nothing to change; hostile input gets a 4xx.

import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createChannel, joinChannel, post, randomVerifier, signUpUser, statusOf, type TestChannel, type TestUser } from "./pocketbase";
import {
  alice,
  auditActions,
  bob,
  call,
  carol,
  get,
  invite,
  joinWith,
  owner,
  preview,
  server,
  setRole,
  su,
  useInvitesStack,
} from "./invites-stack";

useInvitesStack();

const share = () => `${randomBytes(200).toString("base64url")}.${randomBytes(256).toString("base64url")}`;
const start = (user: TestUser, channel: TestChannel) => get(`/api/chat/channels/password?channel_id=${channel.id}`, user);
const change = (user: TestUser, channel: TestChannel, body: Record<string, unknown>) =>
  call("/api/chat/channels/password", { channel_id: channel.id, ...body }, user);

/** Changes the password as `by`, sealing a (fake) share to every other member; answers the new verifier. */
async function changeAs(by: TestUser, channel: TestChannel) {
  const started = await start(by, channel);
  expect(started.status, started.text).toBe(200);
  const { epoch, members } = started.json as { epoch: number; members: string[] };
  const verifier = randomVerifier();
  const res = await change(by, channel, { epoch: epoch + 1, verifier, shares: members.map((m) => ({ user_id: m, data: share() })) });
  expect(res.status, res.text).toBe(200);
  return { verifier, epoch: epoch + 1, answer: res.json as { epoch: number; invites_revoked: number } };
}

describe("changing a classic channel's password", () => {
  it("only a channel admin may: the creator, a named channel admin, the workspace's admins; not members or guests", async () => {
    const channel = await createChannel(alice);
    expect((await joinChannel(bob, channel)).status).toBe(200);
    expect((await joinChannel(carol, channel)).status).toBe(200);
    // a member: refused, directly against PocketBase with the member's own token
    expect((await start(bob, channel)).status).toBe(403);
    const refused = await change(bob, channel, { epoch: 1, verifier: randomVerifier(), shares: [] });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ message: "Only a channel admin can do this." });
    // a guest who is a member: refused
    const guest = await signUpUser(server.url);
    expect((await joinChannel(guest, channel)).status).toBe(200);
    await setRole(guest, "guest");
    expect((await start(guest, channel)).status).toBe(403);
    // someone outside the channel: refused
    expect((await start(await signUpUser(server.url), channel)).status).toBe(403);
    // the creator may; then a channel admin the creator names; then the workspace's owner, in no channel of alice's
    const first = await changeAs(alice, channel);
    expect(first.epoch).toBe(1);
    expect((await call("/api/chat/channels/members/admin", { channel_id: channel.id, user_id: bob.id, admin: true }, alice)).status).toBe(
      200,
    );
    expect((await changeAs(bob, channel)).epoch).toBe(2);
    expect((await changeAs(owner, channel)).epoch).toBe(3);
    expect((await su.collection("channels").getOne(channel.id)).key_epoch).toBe(3);
    expect(await auditActions(channel.id)).toEqual([
      "channel.created",
      "channel.password_changed",
      "channel.password_changed",
      "channel.password_changed",
    ]);
    const entries = await su
      .collection("audit_log")
      .getFullList({ filter: su.filter("action = 'channel.password_changed' && target = {:t}", { t: channel.id }), sort: "seq" });
    expect(entries.map((e) => e.actor)).toEqual([alice.id, bob.id, owner.id]);
    expect(entries[0].details).toEqual({ epoch: 1, members: 3, invites_revoked: 0 });
    expect(JSON.stringify(entries)).not.toContain(first.verifier);
  });

  it("the old password and the invites made before no longer join; the new one does; invites made after carry it", async () => {
    const channel = await createChannel(alice);
    expect((await joinChannel(bob, channel)).status).toBe(200);
    const before = await invite(alice, channel, { max_uses: 10 });
    const { verifier, answer } = await changeAs(alice, channel);
    expect(answer.invites_revoked).toBe(1);
    expect(await preview(before)).toMatchObject({ status: "revoked" });
    // carol knew the old password (or held the old link): refused both ways, and reads nothing
    const old = await joinChannel(carol, channel);
    expect(old.status).toBe(403);
    expect(old.json).toMatchObject({ message: "Incorrect password" });
    expect((await joinWith(carol, channel, before)).status).toBe(403);
    const messages = await carol.pb.collection("messages").getList(1, 10, { filter: carol.pb.filter("channel = {:c}", { c: channel.id }) });
    expect(messages.totalItems).toBe(0);
    // with the new password (and through a new invite) she joins
    const renewed = { ...channel, verifier };
    const after = await invite(alice, renewed);
    expect((await joinWith(carol, renewed, after)).status).toBe(200);
  });

  it("each other member gets a share, only their own; leaving takes it along; a stale epoch or member list is refused", async () => {
    const channel = await createChannel(alice);
    expect((await joinChannel(bob, channel)).status).toBe(200);
    expect((await joinChannel(carol, channel)).status).toBe(200);
    const started = (await start(alice, channel)).json as { epoch: number; members: string[] };
    expect(started).toEqual({ epoch: 0, members: expect.arrayContaining([bob.id, carol.id]) });
    expect(started.members).toHaveLength(2);
    const only = [{ user_id: bob.id, data: share() }];
    const missing = await change(alice, channel, { epoch: 1, verifier: randomVerifier(), shares: only });
    expect(missing.status).toBe(409);
    expect(missing.json).toMatchObject({ message: "The channel's members changed meanwhile. Please try again." });
    const stranger = await signUpUser(server.url);
    const extra = [...only, { user_id: carol.id, data: share() }, { user_id: stranger.id, data: share() }];
    expect((await change(alice, channel, { epoch: 1, verifier: randomVerifier(), shares: extra })).status).toBe(409);
    const shares = [...only, { user_id: carol.id, data: share() }];
    const stale = await change(alice, channel, { epoch: 2, verifier: randomVerifier(), shares });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ message: "The channel's password was changed meanwhile. Please try again." });
    expect((await su.collection("channels").getOne(channel.id)).key_epoch).toBe(0);
    expect((await change(alice, channel, { epoch: 1, verifier: randomVerifier(), shares })).status).toBe(200);

    const bobs = (await get("/api/chat/channels/key-shares", bob)).json as {
      shares: { channel_id: string; from: string; epoch: number; data: string }[];
    };
    expect(bobs.shares.filter((s) => s.channel_id === channel.id)).toEqual([
      { channel_id: channel.id, from: alice.id, epoch: 1, data: shares[0].data },
    ]);
    // no API rule opens the shares
    expect(await statusOf(bob.pb.collection("channel_key_shares").getList(1, 10))).not.toBe(200);
    const carolsId = (
      await su.collection("channel_members").getFirstListItem(su.filter("channel = {:c} && user = {:u}", { c: channel.id, u: carol.id }))
    ).id;
    await carol.pb.collection("channel_members").delete(carolsId);
    expect(
      (await su.collection("channel_key_shares").getFullList({ filter: su.filter("channel = {:c}", { c: channel.id }) })).map(
        (s) => s.user,
      ),
    ).toEqual([bob.id]);
    const carols = (await get("/api/chat/channels/key-shares", carol)).json as { shares: { channel_id: string }[] };
    expect(carols.shares.filter((s) => s.channel_id === channel.id)).toEqual([]);
  });

  it("a sealed channel has no password to change, and a direct conversation is not a channel", async () => {
    const sealed = await createChannel(alice, "Sealed", { sealed: true });
    const answer = await start(alice, sealed);
    expect(answer.status).toBe(409);
    expect(answer.json).toMatchObject({
      message: "A sealed channel has no password to change: its group is the access, and removing someone is enough.",
    });
    expect((await change(alice, sealed, { epoch: 1, verifier: randomVerifier(), shares: [] })).status).toBe(409);
  });
});

describe("hostile input", () => {
  function readable(answer: { status: number; text: string }) {
    expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
    expect(answer.status, answer.text).toBeLessThan(500);
    expect(answer.text).not.toMatch(/goroutine|\.go:\d+|TypeError|ReferenceError/);
  }

  it("wrong methods, garbage, wrong types, oversize bodies, another workspace's ids and no sign-in get a 4xx", async () => {
    const channel = await createChannel(alice);
    expect((await joinChannel(bob, channel)).status).toBe(200);
    const routes = ["/api/chat/channels/password", "/api/chat/channels/key-shares"];
    for (const route of routes) {
      for (const method of ["PUT", "DELETE", "PATCH"]) {
        const res = await fetch(`${server.url}${route}`, {
          method,
          headers: { Authorization: alice.token, "Content-Type": "application/json" },
          body: "{}",
        });
        readable({ status: res.status, text: await res.text() });
      }
      readable(await get(route));
    }
    const route = "/api/chat/channels/password";
    for (const body of ["", "{", "null", "[]", '"x"', "12", '{"__proto__": {"admin": true}}', "<xml/>"])
      readable(await post(server.url, route, body, { token: alice.token }));
    const good = { channel_id: channel.id, epoch: 1, verifier: randomVerifier(), shares: [{ user_id: bob.id, data: share() }] };
    const values = [
      0,
      -1,
      1.5,
      true,
      null,
      [],
      {},
      "x".repeat(5000),
      "' OR 1=1 --",
      "abcdefghijklmno",
      [null],
      [{}],
      [{ user_id: bob.id }],
      [{ user_id: bob.id, data: "no dot" }],
      [{ user_id: bob.id, data: "a".repeat(9000) + ".b" }],
      [
        { user_id: bob.id, data: share() },
        { user_id: bob.id, data: share() },
      ],
    ];
    for (const field of Object.keys(good)) {
      for (const value of values) {
        if (field === "epoch" && value === 1) continue;
        readable(await call(route, { ...good, [field]: value }, alice));
      }
    }
    // another workspace's channel id, and an id that is no channel at all
    readable(await call(route, { ...good, channel_id: "00000000-0000-4000-8000-000000000000" }, alice));
    readable(await get(`${route}?channel_id=00000000-0000-4000-8000-000000000000`, alice));
    for (const query of ["", "?channel_id=", "?channel_id=' OR 1=1", `?channel_id=${"a".repeat(3000)}`])
      readable(await get(`${route}${query}`, alice));
    readable(await post(server.url, route, `{"x":"${"a".repeat(5 * 1024 * 1024)}"}`, { token: alice.token }));
    readable(await call(route, good, undefined));
    // nothing changed
    expect((await su.collection("channels").getOne(channel.id)).key_epoch).toBe(0);
  });
});
