// Notification rules (collection notify_rules, route /api/notify-rules) on the real stack (server.mjs on
// the built app, our PocketBase): saved and read back through the web app, one record per user even
// when two devices save at once, the largest set that validates fits the record, bad bodies are a
// clear 4xx, and nobody else reads or writes a user's rules through PocketBase's records API.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { MUTED_ALWAYS } from "~/features/notify-rules/rules";
import { MAX_RULE_CONVERSATIONS } from "~/features/notify-rules/validation";
import { startPocketBase, type RunningPocketBase } from "./pocketbase";
import { startWebFor, Visitor, type Answer } from "./web";

let pb: RunningPocketBase;
let web: WebServer;
let alice: Visitor;
let bob: Visitor;
let aliceToken: string;
let bobToken: string;

const CHANNEL = "0b6f1c1e-4a7d-4c39-9d5e-2f1a3b4c5d6e";
const DIRECT = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const night = { enabled: true, from: "22:00", to: "07:00", timeZone: "Europe/Paris" };

beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebFor(pb.url);
  [alice, bob] = [new Visitor(web.url), new Visitor(web.url)];
  const [aliceAccount, bobAccount] = [await alice.signUp(), await bob.signUp()];
  const tokenOf = async (a: { email: string; loginSecret: string }) => {
    const auth = await fetch(`${pb.url}/api/collections/users/auth-with-password`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ identity: a.email, password: a.loginSecret }),
    });
    return ((await auth.json()) as { token: string }).token;
  };
  [aliceToken, bobToken] = [await tokenOf(aliceAccount), await tokenOf(bobAccount)];
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

const rulesOf = (answer: Answer) => (answer.json as { rules: unknown }).rules;

/** A call to PocketBase's records API for notify_rules, with a user's token (or none). */
async function records(path: string, token: string | null, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${pb.url}/api/collections/notify_rules/records${path}`, {
    method: init.method ?? "GET",
    headers: { ...(token ? { Authorization: token } : {}), ...(init.body ? { "Content-Type": "application/json" } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: response.status, json: (await response.json().catch(() => null)) as Record<string, unknown> | null };
}

describe("notification rules through the web app", () => {
  it("none before the first save; saved, read back, and replaced whole by the next save", async () => {
    const empty = await alice.send({ path: "/api/notify-rules" });
    expect(empty.status, empty.text).toBe(200);
    expect(empty.headers["cache-control"]).toBe("no-store");
    expect(rulesOf(empty)).toEqual({ conversations: {} });

    const first = { conversations: { [CHANNEL]: { level: "nothing" }, [DIRECT]: { mutedUntil: MUTED_ALWAYS } }, quiet: night };
    const saved = await alice.post("/api/notify-rules", { rules: first });
    expect(saved.status, saved.text).toBe(200);
    expect(rulesOf(saved)).toEqual(first);
    expect(rulesOf(await alice.send({ path: "/api/notify-rules" }))).toEqual(first);

    // a time zone is kept under its canonical name, as the server's time zone database reads it
    const second = {
      conversations: { [CHANNEL]: { level: "all", mutedUntil: Date.now() + 3_600_000 } },
      quiet: { ...night, timeZone: "europe/paris" },
    };
    expect((await alice.post("/api/notify-rules", { rules: second })).status).toBe(200);
    expect(rulesOf(await alice.send({ path: "/api/notify-rules" }))).toEqual({ ...second, quiet: night });
    // one record for her, holding exactly that
    const own = await records("", aliceToken);
    expect(own.json?.totalItems).toBe(1);
  });

  it("the largest set of rules that validates fits the record (every conversation muted always with a level)", async () => {
    const conversations = Object.fromEntries(
      Array.from({ length: MAX_RULE_CONVERSATIONS }, (_, i) => [
        `ffffffff-ffff-4fff-bfff-${String(i).padStart(12, "f")}`,
        { level: "mentions", mutedUntil: MUTED_ALWAYS },
      ]),
    );
    const largest = { conversations, quiet: { ...night, timeZone: "America/Argentina/ComodRivadavia" } };
    const saved = await bob.post("/api/notify-rules", { rules: largest });
    expect(saved.status, saved.text.slice(0, 200)).toBe(200);
    expect(Object.keys((rulesOf(saved) as { conversations: object }).conversations)).toHaveLength(MAX_RULE_CONVERSATIONS);
    await bob.post("/api/notify-rules", { rules: { conversations: {} } });
  });

  it("two devices saving their first rules at the same moment leave one record", async () => {
    const carol = new Visitor(web.url);
    await carol.signUp();
    const second = new Visitor(web.url);
    second.cookies = new Map(carol.cookies);
    second.csrfToken = carol.csrfToken;
    const answers = await Promise.all(
      [carol, second, carol, second].map((device, i) =>
        device.post("/api/notify-rules", { rules: { conversations: { [CHANNEL]: { level: i % 2 ? "all" : "nothing" } } } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const read = rulesOf(await carol.send({ path: "/api/notify-rules" })) as { conversations: Record<string, { level: string }> };
    expect(["all", "nothing"]).toContain(read.conversations[CHANNEL].level);
  });

  it("keeps the pause (pausedUntil) with the rest", async () => {
    const until = Date.now() + 3_600_000;
    const saved = await alice.post("/api/notify-rules", { rules: { conversations: {}, pausedUntil: until } });
    expect(saved.status, saved.text).toBe(200);
    expect(rulesOf(saved)).toEqual({ conversations: {}, pausedUntil: until });
    expect(rulesOf(await alice.send({ path: "/api/notify-rules" }))).toEqual({ conversations: {}, pausedUntil: until });
  });

  it("refuses bad bodies with a clear 4xx, and keeps what was saved", async () => {
    const before = rulesOf(await alice.send({ path: "/api/notify-rules" }));
    const rule = (r: unknown) => ({ rules: { conversations: { [CHANNEL]: r } } });
    const quiet = (q: object) => ({ rules: { conversations: {}, quiet: { ...night, ...q } } });
    const tooMany = {
      rules: {
        conversations: Object.fromEntries(
          Array.from({ length: MAX_RULE_CONVERSATIONS + 1 }, (_, i) => [`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, {}]),
        ),
      },
    };
    const bad: [unknown, RegExp][] = [
      [{}, /rules/],
      [{ conversations: {} }, /rules|Unknown field/i],
      [{ rules: { conversations: [] } }, /object|record/i],
      [rule({ level: "loud" }), /level/i],
      [rule({ mutedUntil: -1 }), /negative/],
      [rule({ mutedUntil: MUTED_ALWAYS + 1 }), /latest time/],
      [rule({ mutedUntil: 1.5 }), /whole number/],
      [rule({ mutedUntil: "soon" }), /number/],
      [rule({ level: "all", extra: true }), /Unknown field in rules\.conversations\..*: extra\./],
      [{ rules: { conversations: { "../users": {} } } }, /UUID/],
      [{ rules: { conversations: {}, pausedUntil: -1 } }, /negative/],
      [{ rules: { conversations: {}, pausedUntil: "1h" } }, /pausedUntil must be a number/],
      [quiet({ from: "25:00" }), /HH:MM/],
      [quiet({ to: "7:00" }), /HH:MM/],
      [quiet({ timeZone: "Mars/Olympus_Mons" }), /time zone/i],
      [quiet({ timeZone: "+01:00" }), /time zone/i],
      [quiet({ to: "22:00" }), /same time/],
      [quiet({ enabled: "yes" }), /true or false/],
      [tooMany, /at most 500/],
    ];
    for (const [body, message] of bad) {
      const answer = await alice.post("/api/notify-rules", body);
      expect(answer.status, `${JSON.stringify(body).slice(0, 80)}: ${answer.text}`).toBe(400);
      expect((answer.json as { message: string }).message, JSON.stringify(body).slice(0, 80)).toMatch(message);
    }
    const garbage = await alice.send({
      method: "POST",
      path: "/api/notify-rules",
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect(garbage.status).toBe(400);
    const noCsrf = await alice.send({ method: "POST", path: "/api/notify-rules", json: { rules: { conversations: {} } }, csrf: "" });
    expect(noCsrf.status).toBe(403);
    const anonymous = new Visitor(web.url);
    await anonymous.visit();
    expect((await anonymous.send({ path: "/api/notify-rules" })).status).toBe(401);
    expect((await anonymous.post("/api/notify-rules", { rules: { conversations: {} } })).status).toBe(401);
    expect(rulesOf(await alice.send({ path: "/api/notify-rules" }))).toEqual(before);
  });

  it("rules the owner wrote straight into PocketBase are read back leniently, never a 5xx", async () => {
    const dave = new Visitor(web.url);
    const account = await dave.signUp();
    const auth = await fetch(`${pb.url}/api/collections/users/auth-with-password`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ identity: account.email, password: account.loginSecret }),
    });
    const token = ((await auth.json()) as { token: string }).token;
    const written = await records("", token, {
      method: "POST",
      body: { owner: dave.userId, rules: { conversations: { [CHANNEL]: { level: "loud" }, [DIRECT]: { level: "all" } }, quiet: "always" } },
    });
    expect(written.status).toBe(200);
    const read = await dave.send({ path: "/api/notify-rules" });
    expect(read.status).toBe(200);
    expect(rulesOf(read)).toEqual({ conversations: { [DIRECT]: { level: "all" } } });
  });
});

describe("nobody else reads or writes a user's rules through PocketBase", () => {
  it("Bob cannot list, view, change, delete or create Alice's rules; signed out, nobody can", async () => {
    const own = await records("", aliceToken);
    const aliceRecord = (own.json?.items as { id: string }[])[0];
    expect(aliceRecord).toBeDefined();

    const listed = await records(`?filter=${encodeURIComponent(`owner="${alice.userId}"`)}`, bobToken);
    expect(listed.status).toBe(200);
    expect(listed.json?.totalItems).toBe(0);
    expect((await records(`/${aliceRecord.id}`, bobToken)).status).toBe(404);
    const changed = await records(`/${aliceRecord.id}`, bobToken, { method: "PATCH", body: { rules: { conversations: {} } } });
    expect(changed.status).toBe(404);
    expect((await records(`/${aliceRecord.id}`, bobToken, { method: "DELETE" })).status).toBe(404);
    const forged = await records("", bobToken, { method: "POST", body: { owner: alice.userId, rules: { conversations: {} } } });
    expect([400, 403]).toContain(forged.status);
    // Bob cannot hand his own record to Alice either
    const bobs = await records("", bobToken);
    const bobRecord = (bobs.json?.items as { id: string }[])[0];
    const handed = await records(`/${bobRecord.id}`, bobToken, { method: "PATCH", body: { owner: alice.userId } });
    expect([400, 403, 404]).toContain(handed.status);

    expect((await records("", null)).json?.totalItems).toBe(0);
    expect((await records(`/${aliceRecord.id}`, null)).status).toBe(404);
    expect(
      (await records("", null, { method: "POST", body: { owner: alice.userId, rules: { conversations: {} } } })).status,
    ).toBeGreaterThanOrEqual(400);

    // Alice's rules are as she saved them
    expect((await records(`/${aliceRecord.id}`, aliceToken)).json?.rules).toEqual(rulesOf(await alice.send({ path: "/api/notify-rules" })));
  });
});
