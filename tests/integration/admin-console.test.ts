// The admin console's rules (docs/decisions/0055-admin-console.md), proven by calling PocketBase
// directly: every console hook refuses members and guests (403) and signed-out callers (401); admins
// manage members and guests, only the owner manages admins, the last owner keeps the role; guests create
// no channels and message only people they share a channel with; "Admins only" holds at channel
// creation; a sign-out of all devices ends every session; each change lands in the audit log.

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import {
  createChannel,
  fakePublicKey,
  postJson,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";

let server: RunningPocketBase;
let su: PocketBase;
let owner: TestUser;
let bob: TestUser; // made admin by the owner
let carol: TestUser; // member
let dave: TestUser; // made guest
let erin: TestUser; // member

const NOT_ADMIN = "Only an administrator can do this.";

const get = async (route: string, token?: string) => {
  const res = await fetch(`${server.url}${route}`, { headers: token ? { Authorization: token } : {} });
  const text = await res.text();
  return { status: res.status, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
};
const setRole = (by: TestUser, target: TestUser, role: string) =>
  postJson(server.url, "/api/chat/admin/people/role", { user_id: target.id, role }, by.token);
const roleOf = async (user: TestUser) => (await su.collection("profiles").getOne(user.id)).role as string;
const auditActions = async () =>
  (await su.collection("audit_log").getFullList({ sort: "seq" })).map((r) => ({
    action: r.action as string,
    target: r.target as string,
    details: r.details,
  }));

beforeAll(async () => {
  server = await startPocketBase();
  owner = await signUpUser(server.url);
  [bob, carol, dave, erin] = [
    await signUpUser(server.url),
    await signUpUser(server.url),
    await signUpUser(server.url),
    await signUpUser(server.url),
  ];
  su = await superuserClient(server.url, server.superuser);
});

afterAll(async () => {
  await server?.stop();
});

const READS = ["/api/chat/admin/people", "/api/chat/admin/people?q=a", "/api/chat/admin/channels", "/api/chat/admin/mail"];
const WRITES: [string, () => unknown][] = [
  ["/api/chat/admin/people/role", () => ({ user_id: carol.id, role: "admin" })],
  ["/api/chat/admin/people/sign-out", () => ({ user_id: erin.id })],
  ["/api/chat/admin/settings", () => ({ who_can_create_channels: "admins" })],
  ["/api/chat/admin/mail/test", () => ({})],
];

describe("who may call the console", () => {
  it("members get 403, signed-out callers 401, on every route; nothing changes", async () => {
    for (const route of READS) {
      const member = await get(route, carol.token);
      expect([route, member.status, member.json.message]).toEqual([route, 403, NOT_ADMIN]);
      expect([route, (await get(route)).status]).toEqual([route, 401]);
    }
    for (const [route, body] of WRITES) {
      const member = await postJson(server.url, route, body(), carol.token);
      expect([route, member.status, (member.json as { message?: string }).message]).toEqual([route, 403, NOT_ADMIN]);
      expect([route, (await postJson(server.url, route, body())).status]).toEqual([route, 401]);
    }
    expect(await roleOf(carol)).toBe("member");
    expect((await get("/api/chat/session", erin.token)).status).toBe(200);
  });

  it("a member cannot change a role by writing the profile either", async () => {
    expect((await postJson(server.url, "/api/chat/admin/people/role", { user_id: carol.id, role: "owner" }, carol.token)).status).toBe(403);
    await carol.pb
      .collection("profiles")
      .update(carol.id, { role: "admin" })
      .catch(() => undefined);
    await carol.pb
      .collection("workspace_settings")
      .update("workspace000001", { who_can_create_channels: "admins" })
      .catch(() => undefined);
    expect(await roleOf(carol)).toBe("member");
    expect((await su.collection("workspace_settings").getOne("workspace000001")).who_can_create_channels).toBe("everyone");
  });
});

describe("role changes", () => {
  it("the owner names an admin; the admin manages members and guests but not admins or the owner", async () => {
    expect((await setRole(owner, bob, "admin")).status).toBe(200);
    expect(await roleOf(bob)).toBe("admin");
    const guest = await setRole(bob, dave, "guest");
    expect(guest.status, guest.text).toBe(200);
    expect(await roleOf(dave)).toBe("guest");
    for (const [target, role] of [
      [carol, "admin"],
      [carol, "owner"],
      [owner, "member"],
      [bob, "member"],
    ] as const) {
      const refused = await setRole(bob, target, role);
      expect([refused.status, (refused.json as { message: string }).message]).toEqual([
        403,
        "Only the owner can name or remove administrators.",
      ]);
    }
    expect([await roleOf(carol), await roleOf(owner)]).toEqual(["member", "owner"]);
  });

  it("the last owner cannot be demoted (409); with a second owner they can", async () => {
    const last = await setRole(owner, owner, "admin");
    expect(last.status).toBe(409);
    expect((last.json as { message: string }).message).toBe(
      "The workspace must keep an owner: name another owner before changing this one's role.",
    );
    expect(await roleOf(owner)).toBe("owner");
    // the People list says how many owners there are, whatever it was searched for (the console offers
    // no role to the last one)
    const owners = async () => (await get(`/api/chat/admin/people?q=${encodeURIComponent(erin.email)}`, owner.token)).json.owners;
    expect(await owners()).toBe(1);
    expect((await setRole(owner, erin, "owner")).status).toBe(200);
    expect(await owners()).toBe(2);
    expect((await setRole(erin, erin, "member")).status).toBe(200);
    expect(await owners()).toBe(1);
    expect([await roleOf(owner), await roleOf(erin)]).toEqual(["owner", "member"]);
  });

  it("a change made from a role another administrator changed meanwhile is refused (409), in words; nothing changes", async () => {
    const change = (role: string, from: unknown) =>
      postJson(server.url, "/api/chat/admin/people/role", { user_id: carol.id, role, from }, owner.token);
    expect(await roleOf(carol)).toBe("member");
    // two consoles showed Carol a member: the first change goes, the second is refused
    expect((await change("guest", "member")).status).toBe(200);
    const stale = await change("admin", "member");
    expect([stale.status, (stale.json as { message: string }).message]).toEqual([
      409,
      "This person's role changed meanwhile: they are now Guest. Look again before changing it.",
    ]);
    expect(await roleOf(carol)).toBe("guest");
    // a second console asking for the very role she has now: nothing left to do, no refusal
    expect((await change("guest", "member")).status).toBe(200);
    for (const from of ["emperor", 3, ["member"]]) expect((await change("member", from)).status).toBe(400);
    expect((await change("member", "guest")).status).toBe(200);
    expect(await roleOf(carol)).toBe("member");
  });

  it("bad input is a 4xx: unknown role, unknown or foreign account, malformed ids and bodies", async () => {
    expect((await setRole(owner, carol, "emperor")).status).toBe(400);
    expect(
      (await postJson(server.url, "/api/chat/admin/people/role", { user_id: "zzzzzzzzzzzzzzz", role: "member" }, owner.token)).status,
    ).toBe(404);
    for (const body of [{}, { user_id: "../x", role: "member" }, { user_id: carol.id }, { user_id: carol.id, role: ["admin"] }, []]) {
      const res = await postJson(server.url, "/api/chat/admin/people/role", body, owner.token);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect(await roleOf(carol)).toBe("member");
  });
});

describe("what roles limit", () => {
  it("a guest cannot create a channel (403), whatever the setting", async () => {
    const res = await postJson(
      server.url,
      "/api/chat/channels",
      { id: randomUUID(), name: "guest's", verifier: "a".repeat(43), ecdh_public_key: "k", kdf_iterations: 600_000 },
      dave.token,
    );
    expect([res.status, (res.json as { message: string }).message]).toEqual([403, "Guests cannot create channels."]);
  });

  it('"Admins only": members get 403, admins and the owner create; "Everyone" gives it back', async () => {
    const set = await postJson(server.url, "/api/chat/admin/settings", { who_can_create_channels: "admins" }, bob.token);
    expect(set.status, set.text).toBe(200);
    await expect(createChannel(carol)).rejects.toThrow(/403.*Only administrators can create channels here\./);
    await createChannel(bob);
    await createChannel(owner);
    expect((await postJson(server.url, "/api/chat/admin/settings", { who_can_create_channels: "nobody" }, bob.token)).status).toBe(400);
    expect((await postJson(server.url, "/api/chat/admin/settings", { who_can_create_channels: "everyone" }, owner.token)).status).toBe(200);
    await createChannel(carol);
  });

  it("a guest starts a conversation only with someone they share a channel with", async () => {
    const start = (with_: TestUser) => postJson(server.url, "/api/chat/direct", { id: randomUUID(), participants: [with_.id] }, dave.token);
    const lookUp = (username: string, by = dave) => postJson(server.url, "/api/chat/users/lookup", { username }, by.token);
    const refused = await start(carol);
    expect([refused.status, (refused.json as { message: string }).message]).toEqual([
      403,
      "Guests can message only people they share a channel with.",
    ]);
    // the look-up says so already (it used to add the person, and only starting was refused)
    const notShared = await lookUp(carol.username);
    expect([notShared.status, (notShared.json as { message: string }).message]).toEqual([
      403,
      "Guests can message only people they share a channel with.",
    ]);
    expect(await lookUp("nobody_by_this_name")).toMatchObject({ status: 200, json: { user: null } });
    const channel = await createChannel(carol);
    // a guest joins through an invite (ADR 57)
    const made = await postJson(server.url, "/api/chat/invites", { channel_id: channel.id }, carol.token);
    expect(made.status, made.text).toBe(200);
    const inviteId = (made.json as { id: string }).id;
    const joined = await postJson(
      server.url,
      "/api/chat/channels/join",
      { channel_id: channel.id, verifier: channel.verifier, ecdh_public_key: fakePublicKey(), invite_id: inviteId },
      dave.token,
    );
    expect(joined.status, joined.text).toBe(200);
    expect((await start(carol)).status).toBe(200);
    expect(await lookUp(carol.username)).toMatchObject({ status: 200, json: { user: { id: carol.id, username: carol.username } } });
    // a member is not limited
    expect(await lookUp(erin.username, carol)).toMatchObject({ status: 200, json: { user: { id: erin.id } } });
    expect((await postJson(server.url, "/api/chat/direct", { id: randomUUID(), participants: [erin.id] }, carol.token)).status).toBe(200);
  });
});

describe("the console's reads and actions", () => {
  it("people: search by username or email, with role, status, devices and channels", async () => {
    const all = (await get("/api/chat/admin/people", bob.token)).json.people as { id: string; role: string; devices: number }[];
    expect(all.map((p) => p.id).sort()).toEqual([owner, bob, carol, dave, erin].map((u) => u.id).sort());
    const byName = (await get(`/api/chat/admin/people?q=${encodeURIComponent(carol.username.slice(5, 11).toUpperCase())}`, bob.token)).json
      .people as {
      id: string;
      email: string;
      channels: number;
      devices: number;
      deactivated: boolean;
      lastSeen: string;
    }[];
    expect(byName.map((p) => p.id)).toEqual([carol.id]);
    expect(byName[0]).toMatchObject({ email: carol.email, channels: 2, deactivated: false });
    expect(byName[0].devices).toBeGreaterThanOrEqual(1);
    expect(byName[0].lastSeen).toMatch(/^\d{4}-\d\d-\d\dT/);
    const byEmail = (await get(`/api/chat/admin/people?q=${encodeURIComponent(dave.email)}`, bob.token)).json.people as {
      id: string;
      role: string;
    }[];
    expect(byEmail).toMatchObject([{ id: dave.id, role: "guest" }]);
    expect((await get("/api/chat/admin/people?q=%25", bob.token)).json.people).toEqual([]);
    expect((await get(`/api/chat/admin/people?q=${"a".repeat(101)}`, bob.token)).status).toBe(400);
  });

  it("channels: member counts and storage; names of classic channels only; an admin reads no message", async () => {
    const sealed = await createChannel(owner, "Secret plans", { sealed: true });
    const channel = await createChannel(owner, "Lunch");
    await owner.pb
      .collection("messages")
      .create({ channel: channel.id, sender: owner.id, encrypted_content: "x".repeat(500), sender_public_key: "k" });
    const list = (await get("/api/chat/admin/channels", bob.token)).json.channels as {
      id: string;
      kind: string;
      name: string;
      members: number;
      bytes: number;
    }[];
    expect(list.find((c) => c.id === channel.id)).toEqual({ id: channel.id, kind: "channel", name: "Lunch", members: 1, bytes: 500 });
    expect(list.find((c) => c.id === sealed.id)).toMatchObject({ kind: "sealed", name: "", members: 1 });
    const direct = list.filter((c) => c.kind === "direct");
    expect(direct.length).toBeGreaterThanOrEqual(2);
    // (a conversation with someone who shares no channel counts its creator until the request is accepted, ADR 52)
    expect(direct.every((c) => c.name === "" && c.members >= 1 && c.members <= 2)).toBe(true);
    expect(direct.some((c) => c.members === 2)).toBe(true);
    expect(JSON.stringify(list)).not.toContain("Secret plans");
    // being an admin opens no channel: bob, not a member, reads none of its messages or members
    expect((await bob.pb.collection("messages").getList(1, 50, { filter: `channel = "${channel.id}"` })).totalItems).toBe(0);
    expect((await bob.pb.collection("channel_members").getList(1, 50, { filter: `channel = "${channel.id}"` })).totalItems).toBe(0);
  });

  it("sign out all devices: every session of that person ends at once; an admin cannot do it to the owner", async () => {
    const second = (
      await postJson(server.url, "/api/collections/users/auth-with-password", { identity: carol.email, password: carol.password })
    ).json as { token: string };
    expect((await get("/api/chat/session", second.token)).status).toBe(200);
    const refused = await postJson(server.url, "/api/chat/admin/people/sign-out", { user_id: owner.id }, bob.token);
    expect([refused.status, (refused.json as { message: string }).message]).toEqual([
      403,
      "Only the owner can sign out an administrator or the owner.",
    ]);
    const res = await postJson(server.url, "/api/chat/admin/people/sign-out", { user_id: carol.id }, bob.token);
    expect(res.status, res.text).toBe(200);
    expect((res.json as { sessions: number }).sessions).toBeGreaterThanOrEqual(2);
    // (her pages are told an administrator did it, not that the session "has ended")
    for (const token of [carol.token, second.token]) {
      const ended = await get("/api/chat/session", token);
      expect([ended.status, (ended.json as { message: string }).message]).toEqual([
        401,
        "An administrator signed you out of all devices. Please sign in again.",
      ]);
    }
    expect((await get("/api/chat/session", owner.token)).status).toBe(200);
    // (a session she starts afterwards and ends herself is hers: no administrator named)
    const later = (
      await postJson(server.url, "/api/collections/users/auth-with-password", { identity: carol.email, password: carol.password })
    ).json as { token: string };
    expect((await postJson(server.url, "/api/chat/signout", {}, later.token)).status).toBe(204);
    const hers = await get("/api/chat/session", later.token);
    expect([hers.status, (hers.json as { message: string }).message]).toEqual([
      401,
      "The request requires valid record authorization token.",
    ]);
    // no device left, and still when she was last seen (it used to read "Never")
    const [after] = (await get(`/api/chat/admin/people?q=${encodeURIComponent(carol.email)}`, bob.token)).json.people as {
      devices: number;
      lastSeen: string;
    }[];
    expect(after.devices).toBe(0);
    expect(after.lastSeen).toMatch(/^\d{4}-\d\d-\d\dT/);
    // the field is the console's only: no API answer carries it
    const own = await get(`/api/collections/users/records/${owner.id}`, owner.token);
    expect(own.status).toBe(200);
    expect(own.json).not.toHaveProperty("last_seen");
  });

  it("mail: not configured here, said so; never a password", async () => {
    const mail = await get("/api/chat/admin/mail", bob.token);
    expect(mail.json).toEqual({ configured: false, host: "", port: 0 });
    const test = await postJson(server.url, "/api/chat/admin/mail/test", {}, bob.token);
    expect([test.status, (test.json as { message: string }).message]).toEqual([400, "Email is not configured on this server."]);
  });

  it("every change is in the audit log, with who and what, and the chain holds", async () => {
    const entries = await auditActions();
    const actions = entries.map((e) => e.action);
    // bob admin, dave guest, erin owner, erin member, carol guest and member again (the stale change is none)
    expect(actions.filter((a) => a === "role.changed")).toHaveLength(6);
    expect(entries.find((e) => e.action === "role.changed" && e.target === dave.id)?.details).toEqual({ from: "member", to: "guest" });
    expect(entries.filter((e) => e.action === "settings.changed").map((e) => e.details)).toEqual([
      { setting: "who_can_create_channels", from: "everyone", to: "admins" },
      { setting: "who_can_create_channels", from: "admins", to: "everyone" },
    ]);
    expect(entries.find((e) => e.action === "sessions.revoked")?.target).toBe(carol.id);
    const rows = await su.collection("audit_log").getFullList({ filter: 'action = "role.changed"' });
    expect(rows.every((r) => [owner.id, bob.id, erin.id].includes(r.actor as string))).toBe(true);
  });
});

// (last: the leaver made here would be one more person and more audit entries for the tests above)
describe("an owner who cannot sign in", () => {
  it("a deactivated account is not named owner, nor counted as one: the last owner who can sign in keeps the role", async () => {
    const leaver = await signUpUser(server.url);
    expect((await postJson(server.url, "/api/chat/admin/people/deactivate", { user_id: leaver.id }, owner.token)).status).toBe(200);
    const named = await setRole(owner, leaver, "owner");
    expect([named.status, (named.json as { message: string }).message]).toEqual([
      409,
      "A deactivated account cannot be named owner: reactivate it first.",
    ]);
    expect(await roleOf(leaver)).toBe("member");
    // an owner deactivated before this held (by the identity provider) does not count either
    await su.collection("profiles").update(leaver.id, { role: "owner" });
    const owners = (await get(`/api/chat/admin/people?q=${encodeURIComponent(leaver.email)}`, owner.token)).json.owners;
    expect(owners).toBe(1);
    expect((await setRole(owner, owner, "member")).status).toBe(409);
    expect(await roleOf(owner)).toBe("owner");
    // nor is such an owner stuck: the console brings them back
    expect((await postJson(server.url, "/api/chat/admin/people/reactivate", { user_id: leaver.id }, owner.token)).status).toBe(200);
    expect((await su.collection("profiles").getOne(leaver.id)).deactivated).toBe(false);
    await su.collection("profiles").update(leaver.id, { role: "member" });
  });
});
