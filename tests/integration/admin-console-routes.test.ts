// The admin console through the web server (app/routes/admin.tsx, app/routes/api.admin.*): members and
// guests get 403 and signed-out callers 401 on every route, /admin refuses members with a page that
// holds no data, and every route gets the hostile suite's treatment (wrong methods, garbage and
// oversize bodies, wrong types, unknown and another workspace's ids): a readable 4xx, never a 5xx.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { EVIL_IDS, GARBAGE_BODIES, oversize, WRONG_METHODS, WRONG_TYPES } from "./hostile-inputs";
import { signUpUser, startPocketBase, superuserClient, type RunningPocketBase } from "./pocketbase";
import { startWebFor, Visitor, type Answer } from "./web";

let pb: RunningPocketBase;
let other: RunningPocketBase;
let web: WebServer;
let owner: Visitor;
let admin: Visitor;
let member: Visitor;
let guest: Visitor;
let anonymous: Visitor;
let foreignId: string;
const emails = new Map<Visitor, string>();

beforeAll(async () => {
  [pb, other] = [await startPocketBase(), await startPocketBase()];
  web = await startWebFor(pb.url);
  [owner, admin, member, guest, anonymous] = Array.from({ length: 5 }, () => new Visitor(web.url));
  for (const v of [owner, admin, member, guest]) emails.set(v, (await v.signUp()).email);
  await anonymous.visit();
  const su = await superuserClient(pb.url, pb.superuser);
  await su.collection("profiles").update(admin.userId, { role: "admin" });
  await su.collection("profiles").update(guest.userId, { role: "guest" });
  foreignId = (await signUpUser(other.url)).id; // an account of another workspace
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
  await other?.stop();
});

// (accounts the superuser makes, in bulk: their keys are never opened)
const MANY_KEYS = { encrypted_ecdh_private_key: "k".repeat(60), encrypted_rsa_private_key: "k".repeat(60), kdf_iterations: 600_000 };
const READS = () => ["/api/admin/people", "/api/admin/people?q=web", "/api/admin/channels", "/api/admin/mail"];
const WRITES = (): [string, unknown][] => [
  [`/api/admin/people/${member.userId}/role`, { role: "guest" }],
  [`/api/admin/people/${member.userId}/sign-out`, {}],
  ["/api/admin/settings", { whoCanCreateChannels: "admins" }],
  ["/api/admin/mail/test", {}],
];

/** Why an answer is not a clear 4xx (undefined when it is one). */
function problem(answer: Answer): string | undefined {
  if (answer.status >= 500) return `server error ${answer.status}`;
  if (answer.status < 400) return `accepted with ${answer.status}`;
  const message = (answer.json as { message?: unknown } | undefined)?.message;
  if (typeof message !== "string" || message.trim().length < 3) return `no readable message: ${answer.text.slice(0, 120)}`;
  if (/at \w+ \(|node_modules|goroutine|\.go:\d+|TypeError|ReferenceError/.test(answer.text)) return "leaks internals";
  return undefined;
}

describe("who may use the console", () => {
  it("members and guests get 403 and signed-out callers 401 on every route; nothing changes", async () => {
    for (const path of READS()) {
      for (const [who, status] of [
        [member, 403],
        [guest, 403],
        [anonymous, 401],
      ] as const) {
        const answer = await who.send({ path });
        expect([path, answer.status]).toEqual([path, status]);
      }
    }
    for (const [path, json] of WRITES()) {
      for (const [who, status] of [
        [member, 403],
        [guest, 403],
        [anonymous, 401],
      ] as const) {
        const answer = await who.post(path, json);
        expect([path, answer.status, problem(answer)]).toEqual([path, status, undefined]);
      }
    }
    const su = await superuserClient(pb.url, pb.superuser);
    expect((await su.collection("profiles").getOne(member.userId)).role).toBe("member");
    expect((await su.collection("workspace_settings").getOne("workspace000001")).who_can_create_channels).toBe("everyone");
  });

  it("/admin: a member sees the refusal and no data; signed out goes to sign-in; an admin gets the console", async () => {
    const refused = await member.send({ path: "/admin", headers: { Accept: "text/html" } });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("Only an administrator can open the admin console.");
    for (const email of emails.values()) expect(refused.text).not.toContain(email);
    const away = await anonymous.send({ path: "/admin", headers: { Accept: "text/html" } });
    expect([away.status, away.headers.location]).toEqual([302, "/?console"]);
    const page = await admin.send({ path: "/admin", headers: { Accept: "text/html" } });
    expect(page.status, page.text.slice(0, 2000)).toBe(200);
    expect(page.text).toContain("Admin console");
  });

  it("People lists the first 200 by username and says when there are more", async () => {
    const listed = async (q = "") =>
      (await admin.send({ path: `/api/admin/people?q=${encodeURIComponent(q)}` })).json as { people: { id: string }[]; more: boolean };
    expect((await listed()).more).toBe(false);
    const su = await superuserClient(pb.url, pb.superuser);
    const accounts = Array.from({ length: 200 }, (_, i) => `many-${i}-${Date.now()}@example.test`);
    for (let i = 0; i < accounts.length; i += 10)
      await Promise.all(
        accounts
          .slice(i, i + 10)
          .map((email) =>
            su.collection("users").create({ email, password: "many-pass-123", passwordConfirm: "many-pass-123", ...MANY_KEYS }),
          ),
      );
    const all = await listed();
    expect([all.people.length, all.more]).toEqual([200, true]);
    const one = await listed(accounts[7]);
    expect([one.people.length, one.more]).toEqual([1, false]);
  }, 120_000); // (200 accounts made, each its password hashed: about 15 s here, twice that under load)

  it("an admin reads people and channels and changes a member's role through the web routes", async () => {
    const people = (await admin.send({ path: `/api/admin/people?q=${encodeURIComponent(emails.get(guest)!)}` })).json as {
      people: { id: string; role: string }[];
    };
    expect(people.people).toMatchObject([{ id: guest.userId, role: "guest" }]);
    const changed = await admin.post(`/api/admin/people/${guest.userId}/role`, { role: "member" });
    expect(changed.status, changed.text).toBe(200);
    const back = await admin.post(`/api/admin/people/${guest.userId}/role`, { role: "guest" });
    expect(back.status).toBe(200);
    const refused = await admin.post(`/api/admin/people/${owner.userId}/role`, { role: "member" });
    expect([refused.status, (refused.json as { message: string }).message]).toEqual([
      403,
      "Only the owner can name or remove administrators.",
    ]);
    expect((await admin.send({ path: "/api/admin/channels" })).status).toBe(200);
  });
});

describe("hostile input on the console's routes", () => {
  it("every hostile request gets a readable 4xx, never a 5xx", async () => {
    const failures: string[] = [];
    let sent = 0;
    const check = async (label: string, send: () => Promise<Answer>) => {
      sent++;
      const answer = await send().catch((error: Error) => ({ status: -1, text: error.message, json: undefined, headers: {} }) as Answer);
      if (answer.status === 0) return; // the server cut an oversize body short
      const wrong = answer.status === -1 ? answer.text : problem(answer);
      if (wrong) failures.push(`${label}: ${wrong} (${answer.status} ${answer.text.slice(0, 100)})`);
    };
    const json = { "Content-Type": "application/json" };
    const paths = [...READS(), ...WRITES().map(([p]) => p), "/admin"];
    for (const path of paths)
      for (const method of WRONG_METHODS) {
        await check(`${method} ${path}`, () => admin.send({ method, path }));
        await check(`${method} ${path} (anonymous)`, () => anonymous.send({ method, path }));
      }
    for (const path of READS()) await check(`POST ${path}`, () => admin.send({ method: "POST", path, headers: json, body: "{}" }));
    for (const [path, valid] of WRITES()) {
      await check(`GET ${path}`, () => admin.send({ path }));
      for (const body of GARBAGE_BODIES)
        await check(`garbage ${body.slice(0, 20)} → ${path}`, () => admin.send({ method: "POST", path, headers: json, body }));
      await check(`chunked 2 MB → ${path}`, () =>
        admin.send({ method: "POST", path, headers: { ...json, "Transfer-Encoding": "chunked" }, body: () => oversize(2 * 1024 * 1024) }),
      );
      for (const name of Object.keys(valid as object))
        for (const wrong of WRONG_TYPES)
          await check(`${name}=${JSON.stringify(wrong)} → ${path}`, () => admin.post(path, { ...(valid as object), [name]: wrong }));
      await check(`extra field → ${path}`, () => admin.post(path, { ...(valid as object), role_: "owner", __proto__x: 1 }));
    }
    for (const id of [...EVIL_IDS, foreignId, "zzzzzzzzzzzzzzz"])
      for (const action of ["role", "sign-out"])
        await check(`${action} of ${id.slice(0, 30)}`, () =>
          admin.post(`/api/admin/people/${id}/${action}`, action === "role" ? { role: "member" } : {}),
        );
    for (const q of ["%", "'", "a".repeat(101), "%00", "\\"])
      await check(`search ${q.slice(0, 10)}`, async () => {
        const answer = await admin.send({ path: `/api/admin/people?q=${encodeURIComponent(q)}` });
        // a search that matches nobody is a fine answer
        return answer.status === 200 ? { ...answer, status: 400, json: { message: "ok: an answer" } } : answer;
      });
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(350);
  });
});
