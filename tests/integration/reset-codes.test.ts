// Reset codes (docs/decisions/0062-reset-codes.md) against our PocketBase, with no SMTP configured:
// only administrators issue them (the owner for admins), a code works once, with its account's address
// only, and opens the same reset step as a reset email's token; wrong codes and unknown addresses get
// one answer; tries are limited; the audit log records both steps; the code itself is not stored.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import { postJson, signUpUser, startPocketBase, superuserClient, type RunningPocketBase, type TestUser } from "./pocketbase";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

let server: RunningPocketBase;
let su: PocketBase;
let owner: TestUser;
let admin: TestUser;
let carol: TestUser;
let dave: TestUser;

const INVALID = "This reset code is not valid. Check it, or ask an administrator for a new one.";
const issue = (by: TestUser, target: TestUser | string) =>
  postJson(server.url, "/api/chat/admin/people/reset-code", { user_id: typeof target === "string" ? target : target.id }, by.token);
const redeem = (email: unknown, code: unknown) => postJson(server.url, "/api/chat/password-reset/code", { email, code });
const open = (token: unknown) => postJson(server.url, "/api/chat/password-reset/open", { token });
/** Files under the directory whose bytes hold the text. */
function filesHolding(dir: string, text: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesHolding(path, text);
    return readFileSync(path).includes(Buffer.from(text)) ? [path] : [];
  });
}
const codeOf = (answer: { json: unknown }) => (answer.json as { code: string }).code;

beforeAll(async () => {
  server = await startPocketBase();
  owner = await signUpUser(server.url);
  [admin, carol, dave] = [await signUpUser(server.url), await signUpUser(server.url), await signUpUser(server.url)];
  su = await superuserClient(server.url, server.superuser);
  expect((await postJson(server.url, "/api/chat/admin/people/role", { user_id: admin.id, role: "admin" }, owner.token)).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe("reset codes", () => {
  it("only administrators issue them: members 403, signed out 401, an admin's code only from the owner, garbage 400", async () => {
    expect((await issue(carol, dave)).status).toBe(403);
    expect((await postJson(server.url, "/api/chat/admin/people/reset-code", { user_id: dave.id })).status).toBe(401);
    const refused = await issue(admin, owner);
    expect([refused.status, (refused.json as { message: string }).message]).toEqual([
      403,
      "Only the owner can issue a reset code for an administrator or the owner.",
    ]);
    expect((await issue(owner, admin)).status).toBe(200);
    expect((await issue(admin, "nobodyhere12345")).status).toBe(404);
    for (const body of [{}, { user_id: 5 }, { user_id: "../../x" }, { user_id: dave.id, extra: "x".repeat(5000) }]) {
      const answer = await postJson(server.url, "/api/chat/admin/people/reset-code", body, admin.token);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
  });

  it("a code works once, with its account's address, and opens the reset step; the code is not stored", async () => {
    const issued = await issue(admin, carol);
    expect(issued.status).toBe(200);
    const code = codeOf(issued);
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    // another address with the right code, or the right address with a wrong code: one answer
    for (const [email, typed] of [
      [dave.email, code],
      ["nobody@example.test", code],
      [carol.email, "0000-0000-0000"],
    ]) {
      const refused = await redeem(email, typed);
      expect(refused.status).toBe(400);
      expect(refused.text).toContain(INVALID);
    }
    expect(filesHolding(server.dataDir, code.replace(/-/g, ""))).toEqual([]);
    // typed in lower case, with spaces: the same code
    const used = await redeem(carol.email.toUpperCase(), code.toLowerCase().replace(/-/g, " "));
    expect(used.status).toBe(200);
    const token = (used.json as { token: string }).token;
    const opened = await open(token);
    expect(opened.status).toBe(200);
    expect((opened.json as { user_id: string }).user_id).toBe(carol.id);
    // used up
    const again = await redeem(carol.email, code);
    expect(again.status).toBe(400);
    expect(again.text).toContain(INVALID);
  });

  it("a new code replaces the earlier one; an expired code is refused", async () => {
    const first = codeOf(await issue(admin, dave));
    const second = codeOf(await issue(admin, dave));
    expect((await redeem(dave.email, first)).status).toBe(400);
    const record = await su.collection("reset_codes").getFirstListItem(`user = "${dave.id}"`);
    await su.collection("reset_codes").update(record.id, { expires: "2020-01-01 00:00:00.000Z" });
    expect((await redeem(dave.email, second)).status).toBe(400);
  });

  it("nobody reads the collection through the API, and the audit log has both steps", async () => {
    const listed = await fetch(`${server.url}/api/collections/reset_codes/records`, { headers: { Authorization: admin.token } });
    expect(listed.status).toBe(403);
    const actions = (await su.collection("audit_log").getFullList({ sort: "seq" })).map(
      (r) => `${r.action as string} ${r.target as string}`,
    );
    expect(actions).toContain(`reset_code.issued ${carol.id}`);
    expect(actions).toContain(`reset_code.used ${carol.id}`);
  });

  it("tries are limited: 5 an hour for one address's account", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await redeem(owner.email, "0000-0000-0000")).status);
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });
});
