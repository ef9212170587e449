// Files people can send (docs/decisions/0071-files-a-team-sends.md), against the PocketBase we build
// behind the web server: only administrators change the setting (members 403, through the web route and
// calling PocketBase directly), bad values are a 400 that changes nothing, every signed-in person reads
// it, and the size limit holds on the server: a file over it is refused 413 with its text (through the
// web server while it streams, and by PocketBase itself on a direct create), with nothing stored.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChannel, postJson, postMessage, signUpUser, type TestChannel, type TestUser } from "./pocketbase";
import { startPocketBase, superuserClient, type RunningPocketBase } from "./pocketbase-server";
import { MB, newUpload, send, storedFor, type UploadTarget } from "./upload-client";
import { signedInClient, startWebServer, type WebClient, type WebServer } from "./web-session";

let pb: RunningPocketBase;
let web: WebServer;
let admin: TestUser;
let member: TestUser;
let channel: TestChannel;
let asAdmin: WebClient;
let asMember: WebClient;

beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebServer(pb.url);
  [admin, member] = [await signUpUser(pb.url), await signUpUser(pb.url)];
  const su = await superuserClient(pb.url, pb.superuser);
  await su.collection("profiles").update(admin.id, { role: "admin" });
  await su.collection("profiles").update(member.id, { role: "member" });
  channel = await createChannel(member);
  [asAdmin, asMember] = [await signedInClient(web.url, admin), await signedInClient(web.url, member)];
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

/** The answer's status and message, for the route as the page calls it. */
async function call(client: WebClient, path: string, body?: unknown): Promise<[number, string]> {
  try {
    const answer = (await client.api(path, body === undefined ? undefined : JSON.stringify(body), {
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
    })) as unknown;
    return [200, JSON.stringify(answer)];
  } catch (error) {
    const e = error as { status?: number; message: string };
    return [e.status ?? 0, e.message];
  }
}

const policy = async () => JSON.parse((await call(asMember, "/api/files/policy"))[1]) as { types: string; maxMb: number; capMb: number };

describe("the setting's API", () => {
  it("members are refused 403 (web route and PocketBase), nothing changes; everyone reads the defaults", async () => {
    expect(await policy()).toEqual({ types: "standard", maxMb: 50, capMb: 50 });
    const [status, message] = await call(asMember, "/api/admin/files", { types: "any", maxMb: 5 });
    expect([status, message]).toEqual([403, "Only an administrator can do this."]);
    const direct = await postJson(pb.url, "/api/chat/admin/files", { types: "any", max_mb: 5 }, member.token);
    expect(direct.status).toBe(403);
    expect((await postJson(pb.url, "/api/chat/admin/files", { types: "any", max_mb: 5 })).status).toBe(401);
    expect(await policy()).toEqual({ types: "standard", maxMb: 50, capMb: 50 });
  });

  it("bad values are a 400 with a readable message, and change nothing", async () => {
    const bad: unknown[] = [
      { types: "exe", maxMb: 5 },
      { types: "any" },
      { types: "any", maxMb: 0 },
      { types: "any", maxMb: 1.5 },
      { types: "any", maxMb: "5" },
      { types: "any", maxMb: 51 },
      { types: "any", maxMb: 5, extra: true },
      [],
      "any",
    ];
    for (const body of bad) {
      const [status, message] = await call(asAdmin, "/api/admin/files", body);
      expect([JSON.stringify(body), status]).toEqual([JSON.stringify(body), 400]);
      expect(message.length).toBeGreaterThan(5);
    }
    expect(await call(asAdmin, "/api/admin/files", { types: "any", maxMb: 51 })).toEqual([
      400,
      "The size limit can be at most 50 MB on this server.",
    ]);
    for (const body of [{ types: "exe", max_mb: 5 }, { types: "any", max_mb: 60 }, { types: "any", max_mb: 0 }, { types: "any" }]) {
      const direct = await postJson(pb.url, "/api/chat/admin/files", body, admin.token);
      expect([JSON.stringify(body), direct.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect(await policy()).toEqual({ types: "standard", maxMb: 50, capMb: 50 });
  });

  it("an administrator's setting is read by members, audited, and its size limit is enforced with 413", async () => {
    const [status, saved] = await call(asAdmin, "/api/admin/files", { types: "office", maxMb: 1 });
    expect([status, JSON.parse(saved)]).toEqual([200, { types: "office", maxMb: 1, capMb: 50 }]);
    expect(await policy()).toEqual({ types: "office", maxMb: 1, capMb: 50 });
    const su = await superuserClient(pb.url, pb.superuser);
    const audit = await su.collection("audit_log").getFullList({ filter: 'action = "settings.changed"' });
    expect(audit.map((a) => (a.details as { setting: string }).setting).sort()).toEqual(["file_max_mb", "file_types"]);

    // through the web server: a file over the limit is refused while it streams, nothing is stored
    const target: UploadTarget = { web, user: member, channel, browser: asMember };
    const large = await newUpload(target, 2 * MB);
    const refused = await send(target, large);
    expect([refused.status, (refused.json as { message: string }).message]).toEqual([413, "The file is larger than the limit of 1 MB."]);
    expect(await storedFor(target, large.messageId)).toBe(0);
    const small = await newUpload(target, MB / 2);
    expect((await send(target, small)).status).toBe(200);
    expect(await storedFor(target, small.messageId)).toBe(1);

    // PocketBase itself refuses it too (a direct create that declares more than the limit)
    const message = await postMessage(member, channel.id);
    const form = new FormData();
    for (const [k, v] of Object.entries({
      message: message.id,
      channel: channel.id,
      uploaded_by: member.id,
      file_name: "bmFtZQ",
      file_size: String(2 * MB),
      file_type: "",
      storage_path: `${member.id}/${channel.id}/${crypto.randomUUID()}.bin`,
    }))
      form.set(k, v);
    form.set("file", new Blob([new Uint8Array(100)]), "encrypted.bin");
    const direct = await member.pb
      .collection("file_attachments")
      .create(form)
      .then(
        () => [200, ""],
        (e: { status: number; message: string }) => [e.status, e.message],
      );
    expect(direct).toEqual([413, "The file is larger than the limit of 1 MB."]);
    expect(await storedFor(target, message.id)).toBe(0);
  }, 120_000);
});
