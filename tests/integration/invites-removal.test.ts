// Removals that stick (docs/decisions/0057-invites-and-bans.md): a removed member cannot come back with
// an old invite or the password until an admin lifts the ban; channel admins; and every new route
// answers hostile input with a 4xx.

import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createChannel, fakePublicKey, joinChannel, post, signUpUser, type TestUser } from "./pocketbase";
import {
  alice,
  auditActions,
  bob,
  call,
  carol,
  get,
  invite,
  isMember,
  joinWith,
  owner,
  preview,
  remove,
  server,
  useInvitesStack,
} from "./invites-stack";

useInvitesStack();

describe("removal that sticks", () => {
  it("a removed member cannot rejoin with an old invite or the password until an admin lifts the ban", async () => {
    const channel = await createChannel(alice, "Sticky");
    const id = await invite(alice, channel);
    expect((await joinWith(bob, channel, id)).status).toBe(200);
    const bobs = await invite(bob, channel, { expires: "never" });
    expect((await remove(carol, channel, bob)).status).toBe(403);
    expect((await remove(alice, channel, bob)).status).toBe(200);
    // nobody joins by a link of his either, and the log says so
    expect(await preview(bobs)).toMatchObject({ status: "revoked" });
    const newcomer = await signUpUser(server.url);
    expect((await joinWith(newcomer, channel, bobs)).json).toMatchObject({ message: "This invite was revoked." });
    expect(await isMember(newcomer, channel)).toBe(false);
    expect(await auditActions(bobs)).toEqual(["invite.created", "invite.revoked"]);
    expect(await preview(id)).toMatchObject({ status: "valid" });
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

  it("a deactivated person's invite links are revoked with the deactivation, and stay revoked after reactivation", async () => {
    const leaver = await signUpUser(server.url);
    const channel = await createChannel(alice, "Leaver's invites");
    expect((await joinWith(leaver, channel)).status).toBe(200);
    const id = await invite(leaver, channel, { expires: "never" });
    const kept = await invite(alice, channel);
    const people = (change: string) => call(`/api/chat/admin/people/${change}`, { user_id: leaver.id }, owner);
    expect((await people("deactivate")).status).toBe(200);
    expect(await preview(id)).toMatchObject({ status: "revoked" });
    const newcomer = await signUpUser(server.url);
    const refused = await joinWith(newcomer, channel, id);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ message: "This invite was revoked." });
    expect(await isMember(newcomer, channel)).toBe(false);
    expect(await auditActions(id)).toEqual(["invite.created", "invite.revoked"]);
    // (someone else's invite to the same channel is untouched)
    expect(await preview(kept)).toMatchObject({ status: "valid" });
    expect((await people("reactivate")).status).toBe(200);
    expect(await preview(id)).toMatchObject({ status: "revoked" });
    expect((await joinWith(newcomer, channel, id)).status).toBe(403);
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

describe("the workspace's owner and admins in a channel", () => {
  it("answer to no channel admin: the owner stays, an admin goes only through the owner or another admin", async () => {
    const channel = await createChannel(alice, "Outranked");
    const erin = await signUpUser(server.url);
    expect((await call("/api/chat/admin/people/role", { user_id: erin.id, role: "admin" }, owner)).status).toBe(200);
    for (const user of [bob, owner, erin]) expect((await joinChannel(user, channel)).status).toBe(200);
    expect((await call("/api/chat/channels/members/admin", { channel_id: channel.id, user_id: bob.id, admin: true }, alice)).status).toBe(
      200,
    );
    for (const by of [bob, alice, erin]) {
      const answer = await remove(by, channel, owner);
      expect([answer.status, answer.json]).toEqual([
        403,
        { status: 403, message: "The workspace's owner cannot be removed from a channel.", data: {} },
      ]);
    }
    for (const by of [bob, alice]) {
      const answer = await remove(by, channel, erin);
      expect(answer.status).toBe(403);
      expect(answer.json).toMatchObject({ message: "Only the workspace's owner or an admin can remove an admin from a channel." });
    }
    expect([await isMember(owner, channel), await isMember(erin, channel)]).toEqual([true, true]);
    expect((await get(`/api/chat/channels/access?channel_id=${channel.id}`, alice)).json.bans).toEqual([]);
    // the owner removes the admin (and the ban holds), as another admin would
    expect((await remove(owner, channel, erin)).status).toBe(200);
    expect(await isMember(erin, channel)).toBe(false);
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
