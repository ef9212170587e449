// Who reads the audit log (docs/decisions/0054-audit-log.md), against a real PocketBase: the owner and
// admins all of it, each person their own entries, nobody through PocketBase's records API; and the
// hostile treatment of its routes.

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fakePublicKey,
  randomVerifier,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";
import { send, signIn, type AuditEntry, type AuditPage } from "./audit-stack";

let pb: RunningPocketBase;
let owner: TestUser;
let carol: TestUser;
let carolToken = "";

beforeAll(async () => {
  pb = await startPocketBase();
  owner = await signUpUser(pb.url);
  carol = await signUpUser(pb.url);
  for (let i = 0; i < 3; i++) carolToken = await signIn(pb.url, carol.email, carol.password);
  for (let i = 0; i < 3; i++) {
    const body = {
      id: randomUUID(),
      name: "Access",
      verifier: randomVerifier(),
      ecdh_public_key: fakePublicKey(),
      kdf_iterations: 600_000,
    };
    expect((await send(pb.url, "/api/chat/channels", { token: carolToken, body })).status).toBe(200);
  }
});

afterAll(async () => {
  await pb?.stop();
});

const log = async (query = "", token = owner.token) => {
  const answer = await send(pb.url, `/api/chat/admin/audit${query}`, { token });
  expect(answer.status, answer.text).toBe(200);
  return answer.json as AuditPage;
};

describe("who reads it", () => {
  const routes = ["/api/chat/admin/audit", "/api/chat/admin/audit/export"];

  it("refuses members and guests (403) and the signed-out (401), also straight at PocketBase's records API", async () => {
    const su = await superuserClient(pb.url, pb.superuser);
    const guest = await signUpUser(pb.url);
    await su.collection("profiles").update(guest.id, { role: "guest" });
    for (const route of routes) {
      expect((await send(pb.url, route, { token: carolToken })).status, route).toBe(403);
      expect((await send(pb.url, route, { token: guest.token })).status, route).toBe(403);
      expect((await send(pb.url, route)).status, route).toBe(401);
    }
    expect((await send(pb.url, "/api/chat/account/activity")).status).toBe(401);
    for (const user of [carolToken, owner.token]) {
      expect((await send(pb.url, "/api/collections/audit_log/records", { token: user })).status).toBe(403);
      expect(
        (await send(pb.url, "/api/collections/audit_log/records", { token: user, body: { seq: 999, at: "x", action: "a.b", hash: "h" } }))
          .status,
      ).toBe(403);
    }
  });

  it("lets an admin read and export it: newest first, paged, filtered, as JSON Lines", async () => {
    const su = await superuserClient(pb.url, pb.superuser);
    const admin = await signUpUser(pb.url);
    await su.collection("profiles").update(admin.id, { role: "admin" });
    const page = await log("?perPage=3&page=2", admin.token);
    expect(page.items).toHaveLength(3);
    expect(page.items[0].seq).toBeGreaterThan(page.items[1].seq);
    expect((await log("?action=signin.", admin.token)).items.every((entry) => entry.action.startsWith("signin."))).toBe(true);

    const exported = await send(pb.url, "/api/chat/admin/audit/export", { token: admin.token });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect(exported.headers.get("content-disposition")).toBe(`attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.jsonl"`);
    const lines = exported.text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditEntry);
    expect(lines.length).toBeGreaterThan(8);
    expect(Object.keys(lines[0]).sort()).toEqual([
      "action",
      "actor",
      "actor_name",
      "at",
      "channel_name",
      "details",
      "device",
      "hash",
      "ip",
      "prev_hash",
      "seq",
      "target",
      "target_name",
    ]);
    expect(lines[1].prev_hash).toBe(lines[0].hash);
    // the export is itself recorded
    expect((await log("?action=audit.exported", admin.token)).items[0].actor).toBe(admin.id);
  });

  it("counts an admin's pages from the entry the first page was read up to, and says how many came since", async () => {
    const first = await log("?perPage=3");
    expect(first.upto).toBe(first.items[0].seq);
    expect(first.newer).toBe(0);
    const asOfFirst = (await log(`?perPage=200&upto=${first.upto}`)).items.map((entry) => entry.seq);
    // two entries are written meanwhile (the owner signs in twice more)
    for (let i = 0; i < 2; i++) await signIn(pb.url, owner.email, owner.password);
    const second = await log(`?perPage=3&page=2&upto=${first.upto}`);
    expect(second.items.map((entry) => entry.seq)).toEqual(asOfFirst.slice(3, 6));
    expect([second.upto, second.newer, second.totalItems]).toEqual([first.upto, 2, first.totalItems]);
    // filtered, the same: the new sign-ins are newer, the old ones on their pages
    const signIns = await log(`?perPage=1&page=2&action=signin.&upto=${first.upto}`);
    expect(signIns.newer).toBe(2);
    expect(signIns.items[0].seq).toBeLessThanOrEqual(first.upto);
    // page 1 read again starts from the newest
    const again = await log("?perPage=3");
    expect([again.upto, again.newer, again.totalItems]).toEqual([first.upto + 2, 0, first.totalItems + 2]);
  });

  it("gives the entries of a time span, from its start and before its end", async () => {
    const all = (await log("?perPage=200")).items;
    const newest = all[0];
    const seqs = (page: AuditPage) => page.items.map((entry) => entry.seq);
    // from the newest entry's time (with or without milliseconds): the entries of that moment on
    const since = await log(`?perPage=200&since=${newest.at}`);
    expect(seqs(since)).toEqual(all.filter((entry) => entry.at >= newest.at).map((entry) => entry.seq));
    expect(seqs(since)).toContain(newest.seq);
    expect(seqs(await log(`?perPage=200&since=${newest.at.slice(0, 19)}Z`))).toEqual(
      all.filter((entry) => entry.at >= `${newest.at.slice(0, 19)}.000Z`).map((entry) => entry.seq),
    );
    // before it: everything older
    const until = await log(`?perPage=200&until=${newest.at}`);
    expect(seqs(until)).toEqual(all.filter((entry) => entry.at < newest.at).map((entry) => entry.seq));
    expect(until.totalItems).toBe(all.length - since.totalItems);
    // an empty span, and one with an action's filter
    expect((await log("?since=2030-01-01T00:00:00Z")).items).toEqual([]);
    expect((await log("?until=2000-01-01T00:00:00.000Z")).totalItems).toBe(0);
    const signIns = await log("?perPage=200&action=signin.&since=2000-01-01T00:00:00Z&until=2099-01-01T00:00:00Z");
    expect(signIns.items.length).toBeGreaterThan(0);
    expect(signIns.items.every((entry) => entry.action.startsWith("signin."))).toBe(true);
  });

  it("shows each person only their own entries in their account's activity", async () => {
    const answer = await send(pb.url, "/api/chat/account/activity", { token: carolToken });
    expect(answer.status).toBe(200);
    const items = (answer.json as { items: { action: string; self: boolean }[] }).items;
    expect(items.map((item) => item.action)).toEqual([
      ...Array(3).fill("channel.created"),
      ...Array(3).fill("signin.succeeded"),
      "account.created",
    ]);
    const mine = (await log(`?person=${carol.id}&perPage=200`)).items.map((entry) => entry.seq);
    expect(items.every((item) => mine.includes((item as unknown as { seq: number }).seq))).toBe(true);
    const other = await signUpUser(pb.url);
    const theirs = (await send(pb.url, "/api/chat/account/activity", { token: other.token })).json as { items: { action: string }[] };
    expect(theirs.items.map((item) => item.action)).toEqual(["account.created"]);
    // an administrator's action on them is theirs to see, but not the administrator's address and device (ADR 54)
    const made = await send(pb.url, "/api/chat/admin/people/role", { token: owner.token, body: { user_id: other.id, role: "guest" } });
    expect(made.status).toBe(200);
    const after = (await send(pb.url, "/api/chat/account/activity", { token: other.token })).json as {
      items: { action: string; self: boolean; actor_name: string; ip: string; device: string }[];
    };
    const byAdmin = after.items.find((item) => item.action === "role.changed");
    expect(byAdmin).toMatchObject({ self: false, actor_name: owner.username, ip: "", device: "" });
    // (their own entry keeps where it came from)
    const own = (await log(`?person=${other.id}&action=account.created`)).items[0];
    expect(after.items.find((item) => item.action === "account.created")).toMatchObject({ self: true, ip: own.ip, device: own.device });
  });

  it("answers bad requests with a 4xx, never a 5xx", async () => {
    const bad = [
      "?page=0",
      "?page=abc",
      "?perPage=9999",
      "?perPage=-1",
      "?person=../../etc",
      "?person=" + "a".repeat(5000),
      "?action=DROP%20TABLE",
      "?action=" + "a".repeat(100),
      "?page=1e9",
      "?upto=0",
      "?upto=-1",
      "?upto=abc",
      "?upto=" + "9".repeat(20),
      "?since=yesterday",
      "?since=2026-13-45T00:00:00Z",
      "?until=2026-12-05",
      "?until=2026-12-05T00:00:00+01:00",
    ];
    for (const query of bad) {
      const answer = await send(pb.url, `/api/chat/admin/audit${query}`, { token: owner.token });
      expect(answer.status, query).toBeGreaterThanOrEqual(400);
      expect(answer.status, query).toBeLessThan(500);
    }
    for (const route of [...routes, "/api/chat/account/activity"]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const answer = await send(pb.url, route, { method, token: owner.token, raw: "{garbage" });
        expect(answer.status, `${method} ${route}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${method} ${route}`).toBeLessThan(500);
      }
    }
    const huge = await send(pb.url, "/api/chat/admin/audit?person=" + "b".repeat(100_000), { token: owner.token });
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
  });
});
