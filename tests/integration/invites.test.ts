// Invites with limits (docs/decisions/0057-invites-and-bans.md): invites expire, run out and can be
// revoked; a join through one counts a use atomically; only the channel's and workspace's admins list
// them; guests join only through an invite.

import { describe, expect, it } from "vitest";
import { createChannel, fakePublicKey, joinChannel, signUpUser } from "./pocketbase";
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
  server,
  setRole,
  su,
  useInvitesStack,
} from "./invites-stack";

useInvitesStack();

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

  it("one person makes at most 30 invites an hour; the next is refused in words, others go on", async () => {
    const maker = await signUpUser(server.url);
    const channel = await createChannel(maker, "Busy");
    expect((await joinChannel(bob, channel)).status).toBe(200);
    for (let i = 0; i < 30; i++) expect((await call("/api/chat/invites", { channel_id: channel.id }, maker)).status).toBe(200);
    const refused = await call("/api/chat/invites", { channel_id: channel.id }, maker);
    expect([refused.status, (refused.json as { message: string }).message]).toEqual([
      429,
      "You made 30 invites in the last hour. Please wait a while before making more.",
    ]);
    expect(await su.collection("invites").getFullList({ filter: `channel = "${channel.id}"` })).toHaveLength(30);
    expect((await call("/api/chat/invites", { channel_id: channel.id }, bob)).status).toBe(200);
  });

  it("nobody invites to a channel they are not in, nor to a direct conversation", async () => {
    const channel = await createChannel(alice);
    expect((await call("/api/chat/invites", { channel_id: channel.id }, bob)).status).toBe(404);
    expect((await call("/api/chat/invites", { channel_id: channel.id })).status).toBe(401);
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
