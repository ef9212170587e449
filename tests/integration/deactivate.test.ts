// Deactivation (docs/decisions/0056-deactivation.md): only an administrator deactivates or reactivates
// someone (never the owner, never themselves; an admin only by the owner), checked in PocketBase's hooks
// (proven by calling PocketBase directly); the person's tokens are refused at once, sign-in answers
// why, their memberships end, their devices leave running calls and get no new call token; reactivation
// gives the account back with no memberships. Real PocketBase, web server and LiveKit.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCallStack, type CallStack } from "./call-stack";
import {
  client,
  createChannel,
  joinChannel,
  post,
  postJson,
  signUpUser,
  statusOf,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";
import { signedInClient, WebClient, type WebServer } from "./web-session";

const DEACTIVATED = "This account was deactivated by an administrator.";
const AT_ONCE_MS = 1_500;

let stack: CallStack;
let pb: RunningPocketBase;
let web: WebServer;
let owner: TestUser;
let bob: TestUser; // an admin
let erin: TestUser; // another admin
let alice: TestUser;
let carol: TestUser;
let guest: TestUser;

const hook = (change: "deactivate" | "reactivate") => `/api/chat/admin/people/${change}`;
const route = (id: string, change: "deactivate" | "reactivate") => `/api/admin/people/${id}/${change}`;
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ status: 200, message: "" }),
    (error: { status: number; message: string }) => ({ status: error.status, message: error.message }),
  );
const identities = (room: string) => stack.identities(room);
const ticket = (as: WebClient, room: string, device: string) => stack.ticket(as, room, device);

beforeAll(async () => {
  stack = await startCallStack();
  ({ pb, web } = stack);
  owner = await signUpUser(pb.url);
  [bob, erin, alice, carol, guest] = await Promise.all([1, 2, 3, 4, 5].map(() => signUpUser(pb.url)));
  const su = await superuserClient(pb.url, pb.superuser);
  await su.collection("profiles").update(bob.id, { role: "admin" });
  await su.collection("profiles").update(erin.id, { role: "admin" });
  await su.collection("profiles").update(guest.id, { role: "guest" });
}, 15 * 60_000);

afterAll(() => stack?.stop());

describe("who may deactivate", () => {
  it("refuses the signed-out (401), members and guests (403), on the web server and in PocketBase itself", async () => {
    for (const change of ["deactivate", "reactivate"] as const) {
      expect((await postJson(pb.url, hook(change), { user_id: carol.id })).status).toBe(401);
      expect((await postJson(pb.url, hook(change), { user_id: carol.id }, alice.token)).status).toBe(403);
      expect((await postJson(pb.url, hook(change), { user_id: carol.id }, guest.token)).status).toBe(403);
      const [asAlice, asGuest] = await Promise.all([signedInClient(web.url, alice), signedInClient(web.url, guest)]);
      expect((await refusal(asAlice.api(route(carol.id, change), {}))).status).toBe(403);
      expect((await refusal(asGuest.api(route(carol.id, change), {}))).status).toBe(403);
      const anonymous = new WebClient(web.url);
      await anonymous.loadPage();
      expect((await refusal(anonymous.api(route(carol.id, change), {}))).status).toBe(401);
    }
    const su = await superuserClient(pb.url, pb.superuser);
    expect((await su.collection("profiles").getOne(carol.id)).deactivated).toBe(false);
  });

  it("an admin deactivates neither the owner, nor themselves, nor another admin; the owner may deactivate an admin", async () => {
    expect((await postJson(pb.url, hook("deactivate"), { user_id: owner.id }, bob.token)).status).toBe(403);
    expect((await postJson(pb.url, hook("deactivate"), { user_id: bob.id }, bob.token)).status).toBe(400);
    expect((await postJson(pb.url, hook("deactivate"), { user_id: erin.id }, bob.token)).status).toBe(403);
    expect((await postJson(pb.url, hook("deactivate"), { user_id: owner.id }, owner.token)).status).toBe(400);
    const byOwner = await postJson(pb.url, hook("deactivate"), { user_id: erin.id }, owner.token);
    expect(byOwner.status, byOwner.text).toBe(200);
    expect(byOwner.json).not.toHaveProperty("already");
    // done twice (two consoles at once, a retry): the second answer says it was done already
    const again = await postJson(pb.url, hook("deactivate"), { user_id: erin.id }, owner.token);
    expect([again.status, again.json]).toEqual([200, { user_id: erin.id, channels: [], already: true }]);
    expect((await postJson(pb.url, hook("reactivate"), { user_id: erin.id }, bob.token)).status).toBe(403);
    const back = await postJson(pb.url, hook("reactivate"), { user_id: erin.id }, owner.token);
    expect([back.status, back.json]).toEqual([200, { user_id: erin.id }]);
    expect((await postJson(pb.url, hook("reactivate"), { user_id: erin.id }, owner.token)).json).toEqual({
      user_id: erin.id,
      already: true,
    });
  });

  it("hostile input gets a 4xx, never a 5xx, and changes nothing", async () => {
    const asBob = await signedInClient(web.url, bob);
    for (const change of ["deactivate", "reactivate"] as const) {
      // methods
      for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
        const onHook = await fetch(new URL(hook(change), pb.url), { method, headers: { Authorization: bob.token } });
        expect(onHook.status, `${method} ${hook(change)}`).toBeGreaterThanOrEqual(400);
        expect(onHook.status).toBeLessThan(500);
        const onRoute = await refusal(asBob.api(route(carol.id, change), undefined, { method } as never));
        expect(onRoute.status, `${method} ${route(carol.id, change)}`).toBeGreaterThanOrEqual(400);
        expect(onRoute.status).toBeLessThan(500);
      }
      // garbage, wrong types, unknown and evil ids
      const bodies: (string | Uint8Array)[] = [
        "",
        "not json",
        "[]",
        "null",
        '"x"',
        "{",
        JSON.stringify({}),
        JSON.stringify({ user_id: 5 }),
        JSON.stringify({ user_id: ["x"] }),
        JSON.stringify({ user_id: "../../etc/passwd" }),
        JSON.stringify({ user_id: "' OR 1=1 --" }),
        JSON.stringify({ user_id: "aaaaaaaaaaaaaaa" }),
        JSON.stringify({ user_id: randomUUID() }),
        '{"user_id": {"__proto__": {"admin": true}}}',
        new Uint8Array(64 * 1024).fill(0x41),
      ];
      for (const body of bodies) {
        const answer = await post(pb.url, hook(change), body, { token: bob.token });
        expect(answer.status, `${String(body).slice(0, 40)} → ${answer.text}`).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }
      const oversize = await postJson(pb.url, hook(change), { user_id: carol.id, pad: "x".repeat(8_000) }, bob.token);
      expect(oversize.status).toBe(413);
      for (const id of ["aaaaaaaaaaaaaaa", "nope", "AAAAAAAAAAAAAAA", randomUUID(), "%2e%2e", "x".repeat(400)]) {
        const answer = await refusal(asBob.api(route(encodeURIComponent(id), change), {}));
        expect(answer.status, id).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }
    }
    const su = await superuserClient(pb.url, pb.superuser);
    expect((await su.collection("profiles").getOne(carol.id)).deactivated).toBe(false);
  });
});

describe("deactivating Carol", () => {
  it("ends her sessions, sign-ins, memberships and calls at once; reactivation gives her back an empty account", async () => {
    const channel = await createChannel(alice);
    expect((await joinChannel(carol, channel)).status).toBe(200);
    const sealed = await createChannel(alice, "sealed room", { sealed: true });
    expect((await joinChannel(carol, sealed)).status).toBe(200);
    // its MLS group as the delivery service keeps it (not a real group: only its epoch is read here)
    await (
      await superuserClient(pb.url, pb.superuser)
    )
      .collection("mls_groups")
      .create({ channel: sealed.id, epoch: 4, group_info: "AAAA" });
    const [asAlice, asCarol, asBob] = await Promise.all([alice, carol, bob].map((u) => signedInClient(web.url, u)));
    const direct = randomUUID();
    await asAlice.api("/api/direct", { id: direct, participants: [carol.id] });
    // Carol in the channel's call
    const carolTicket = await ticket(asCarol, channel.id, "ca401device00001");
    await stack.join(carolTicket.token);
    await expect.poll(() => identities(channel.id), { timeout: 10_000 }).toContain(`${carol.id}:ca401device00001`);

    // Alice's page is open (its live stream), so this web process hears PocketBase's relay.
    const events: { type: string; channelId?: string; userId?: string; name?: string; epoch?: number }[] = [];
    const stream = await asAlice.openEvents(null, (event: (typeof events)[number]) => events.push(event));
    const at = Date.now();
    const answer = (await asBob.api(route(carol.id, "deactivate"), {})) as { ok: boolean; channels: number };
    expect(answer).toEqual({ ok: true, channels: 3 });
    // out of the call at once
    await expect.poll(() => identities(channel.id), { timeout: AT_ONCE_MS, interval: 100 }).not.toContain(`${carol.id}:ca401device00001`);
    expect(Date.now() - at).toBeLessThan(AT_ONCE_MS + 500);

    // her token is refused by PocketBase itself, and the session check says why
    expect(await statusOf(carol.pb.collection("channel_members").getList(1, 1))).toBe(200); // a list rule: no rows, no error
    expect((await carol.pb.collection("channel_members").getFullList()).length).toBe(0);
    const session = await fetch(new URL("/api/chat/session", pb.url), { headers: { Authorization: carol.token } });
    expect(session.status).toBe(401);
    expect(((await session.json()) as { message: string }).message).toBe(DEACTIVATED);
    expect((await postJson(pb.url, "/api/chat/typing", { channel: channel.id, data: "" }, carol.token)).status).toBe(401);
    // her web session is over at once, with the reason, even for a request PocketBase would answer a
    // guest (the web server had confirmed her session a moment before)
    expect(await refusal(asCarol.api("/api/channels"))).toEqual({ status: 401, message: DEACTIVATED });
    expect(await refusal(asCarol.api("/api/auth/sessions"))).toEqual({ status: 401, message: DEACTIVATED });
    // Alice's page is told, for the sealed channel and the direct conversation (and the classic channel)
    await expect
      .poll(
        () =>
          events
            .filter((e) => e.type === "member-deactivated")
            .map((e) => e.channelId)
            .sort(),
        { timeout: 5_000 },
      )
      .toEqual([channel.id, sealed.id, direct].sort());
    expect(events.find((e) => e.type === "member-deactivated")).toMatchObject({ userId: carol.id, name: carol.username });
    // a conversation with an MLS group names its epoch: a page whose state is at it commits the removal at once
    const told = (id: string) => events.find((e) => e.type === "member-deactivated" && e.channelId === id);
    expect(told(sealed.id)).toMatchObject({ epoch: 4 });
    expect(told(channel.id)).not.toHaveProperty("epoch");
    stream.close();
    // no new call token, for her old session or a new one
    expect((await refusal(ticket(asCarol, channel.id, "ca401device00001"))).status).toBe(401);
    // sign-in answers why: PocketBase directly, and the web server
    const direct401 = await refusal(client(pb.url).collection("users").authWithPassword(carol.email, carol.password));
    expect(direct401).toEqual({ status: 403, message: DEACTIVATED });
    const fresh = new WebClient(web.url);
    await fresh.loadPage();
    expect(await refusal(fresh.api("/api/auth/signin", { email: carol.email, loginSecret: carol.password }))).toEqual({
      status: 403,
      message: DEACTIVATED,
    });
    // a wrong password still says only that
    expect((await refusal(fresh.api("/api/auth/signin", { email: carol.email, loginSecret: "wrong-password-x" }))).status).toBe(400);

    // memberships gone everywhere; her profile says so; the audit log has the step
    const su = await superuserClient(pb.url, pb.superuser);
    expect(await su.collection("channel_members").getFullList({ filter: su.filter("user = {:u}", { u: carol.id }) })).toHaveLength(0);
    expect(await su.collection("mls_key_packages").getFullList({ filter: su.filter("user = {:u}", { u: carol.id }) })).toHaveLength(0);
    expect((await su.collection("profiles").getOne(carol.id)).deactivated).toBe(true);
    const entries = await su.collection("audit_log").getFullList({ filter: su.filter("target = {:u}", { u: carol.id }), sort: "seq" });
    // (her own sign-up and sign-ins are entries of hers; the administrator's steps are the ones by bob:
    // the deactivation, her sessions ended, and her removal from each conversation)
    const steps = entries.filter((e) => e.actor === bob.id);
    expect(steps.map((e) => e.action)).toEqual(["account.deactivated", "sessions.revoked", ...steps.slice(2).map(() => "member.removed")]);
    expect(steps[1].details).toMatchObject({ by_admin: true, deactivated: true });
    expect(steps[1].details.sessions).toBeGreaterThanOrEqual(1);
    const removedFrom = steps.slice(2).map((e) => (e.details as { channel: string }).channel);
    expect(removedFrom).toContain(channel.id);
    expect(removedFrom).toHaveLength((steps[0].details as { channels: number }).channels);
    // the others' call status does not count her, and her old LiveKit token is removed again when she comes back
    await stack.join(carolTicket.token);
    await expect.poll(() => identities(channel.id), { timeout: 10_000 }).toContain(`${carol.id}:ca401device00001`);
    expect(await asAlice.api(`/api/calls/${channel.id}/status`)).toEqual({ enabled: true, participants: 0 });
    await expect.poll(() => identities(channel.id), { timeout: AT_ONCE_MS, interval: 100 }).not.toContain(`${carol.id}:ca401device00001`);
    // deactivating again changes nothing, and says it was done already
    expect(await asBob.api(route(carol.id, "deactivate"), {})).toEqual({ ok: true, channels: 0, already: true });

    // nobody starts a conversation with her meanwhile, nor adds her to one: refused in words, with no
    // membership or request for her to find when she comes back (the look-up says so at once)
    const NO_MESSAGES = `${carol.username}'s account is deactivated: they cannot be messaged.`;
    expect(await refusal(asAlice.api("/api/people", { username: carol.username }))).toEqual({ status: 403, message: NO_MESSAGES });
    expect(await refusal(asAlice.api("/api/direct", { id: randomUUID(), participants: [carol.id] }))).toEqual({
      status: 403,
      message: NO_MESSAGES,
    });
    const group = randomUUID();
    await asAlice.api("/api/direct", { id: group, participants: [bob.id, erin.id] });
    expect(await refusal(asAlice.api(`/api/direct/${group}/add`, { participants: [carol.id] }))).toEqual({
      status: 403,
      message: NO_MESSAGES,
    });
    expect(await su.collection("direct_requests").getFullList({ filter: su.filter("user = {:u}", { u: carol.id }) })).toHaveLength(0);
    expect(await su.collection("channel_members").getFullList({ filter: su.filter("user = {:u}", { u: carol.id }) })).toHaveLength(0);

    // reactivation: she signs in again and is a member of nothing; her sign-ins refused while deactivated,
    // with her right password, were no failed attempts (they counted, and made a "burst" in the audit log)
    expect(await asBob.api(route(carol.id, "reactivate"), {})).toEqual({ ok: true, channels: 0 });
    const signedIn = await client(pb.url).collection("users").authWithPassword(carol.email, carol.password);
    expect(signedIn.meta?.failedSignIns ?? 0).toBe(0);
    const back = await signedInClient(web.url, carol);
    expect(await back.api("/api/channels")).toMatchObject({ channels: [] });
    const again = await su.collection("audit_log").getFullList({ filter: su.filter("target = {:u}", { u: carol.id }), sort: "seq" });
    expect(again.filter((e) => e.actor === bob.id).map((e) => e.action)).toEqual([...steps.map((e) => e.action), "account.reactivated"]);
  });
});
