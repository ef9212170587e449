// The audit log's web routes (app/routes/api.admin.audit*.ts, api.account.activity.ts) on the production
// web server in front of our PocketBase: the owner reads and downloads, members and guests are refused,
// the signed-out too, and bad requests get a 4xx.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../../bench/lib/http.mjs";
import { signUpUser, startPocketBase, superuserClient, type RunningPocketBase } from "./pocketbase";
import { signedInClient, startWebServer, WebClient, type WebServer } from "./web-session";

let pb: RunningPocketBase;
let web: WebServer;
let owner: WebClient;
let member: WebClient;
let guest: WebClient;

beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebServer(pb.url);
  const [ownerUser, memberUser, guestUser] = [await signUpUser(pb.url), await signUpUser(pb.url), await signUpUser(pb.url)];
  await (await superuserClient(pb.url, pb.superuser)).collection("profiles").update(guestUser.id, { role: "guest" });
  [owner, member, guest] = await Promise.all([ownerUser, memberUser, guestUser].map((user) => signedInClient(web.url, user)));
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

async function outcome(call: Promise<unknown>): Promise<[number, string]> {
  try {
    await call;
    return [200, ""];
  } catch (error) {
    return [(error as { status: number }).status, (error as Error).message];
  }
}

const get = (client: WebClient, path: string) =>
  request(`${web.url}${path}`, { headers: { Cookie: client.cookieHeader(), "X-CSRF-Token": client.csrf } }) as Promise<{
    status: number;
    headers: Record<string, string>;
    text: string;
  }>;

describe("the audit log on the web server", () => {
  it("answers the owner a page with the chain's verdict, and the download as JSON Lines", async () => {
    const page = (await owner.api("/api/admin/audit?perPage=2")) as { items: { action: string }[]; chain: { ok: boolean; count: number } };
    expect(page.items).toHaveLength(2);
    expect(page.chain.ok).toBe(true);
    const download = await get(owner, "/api/admin/audit/export");
    expect(download.status).toBe(200);
    expect(download.headers["content-type"]).toMatch(/^application\/x-ndjson/);
    expect(download.headers["content-disposition"]).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.jsonl"$/);
    expect(download.text.trimEnd().split("\n").length).toBe(page.chain.count);
  });

  it("refuses members and guests (403) and the signed-out (401)", async () => {
    for (const path of ["/api/admin/audit", "/api/admin/audit/export"]) {
      expect(await outcome(member.api(path))).toEqual([403, "Only an administrator can do this."]);
      expect(await outcome(guest.api(path))).toEqual([403, "Only an administrator can do this."]);
      expect((await outcome(new WebClient(web.url).api(path)))[0]).toBe(401);
    }
    expect((await outcome(new WebClient(web.url).api("/api/account/activity")))[0]).toBe(401);
  });

  it("shows each person their own activity", async () => {
    const items = ((await guest.api("/api/account/activity")) as { items: { action: string; self: boolean }[] }).items;
    expect(items.map((item) => item.action)).toEqual(["signin.succeeded", "account.created"]);
    expect(items.every((item) => item.self)).toBe(true);
  });

  it("answers other methods 405 and bad parameters 400", async () => {
    for (const path of ["/api/admin/audit", "/api/admin/audit/export", "/api/account/activity"])
      expect((await outcome(owner.api(path, {})))[0], path).toBe(405);
    for (const query of ["?page=abc", "?page=0", "?perPage=1000", "?person=x", "?action=DROP", "?other=1"])
      expect((await outcome(owner.api(`/api/admin/audit${query}`)))[0], query).toBe(400);
    expect((await outcome(owner.api("/api/admin/audit/export?x=1")))[0]).toBe(400);
  });
});
