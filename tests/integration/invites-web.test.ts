// The web app's invite routes (docs/decisions/0057-invites-and-bans.md) in front of our PocketBase: a
// member makes an invite, joins through one, and is refused the admin console's list and revoke; the
// workspace's owner lists and revokes every invite. The role checks are the hooks' (invites.test.ts).

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { fakePublicKey, startPocketBase, type RunningPocketBase } from "./pocketbase";
import { startWebFor, Visitor } from "./web";

let pb: RunningPocketBase;
let web: WebServer;
let owner: Visitor;
let alice: Visitor;
let bob: Visitor;

beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebFor(pb.url);
  [owner, alice, bob] = [new Visitor(web.url), new Visitor(web.url), new Visitor(web.url)];
  await owner.signUp(); // the first account owns the workspace
  await alice.signUp();
  await bob.signUp();
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

describe("invite routes of the web app", () => {
  it("a member invites and joins through an invite; only the owner and admins list and revoke every invite", async () => {
    const channel = await alice.createChannel("Web invites");
    const made = await alice.post(`/api/channels/${channel.id}/invites`, { expires: "1d", maxUses: 1 });
    expect(made.status, made.text).toBe(200);
    const id = (made.json as { id: string }).id;
    expect(made.json).toMatchObject({ maxUses: 1 });

    const seen = await bob.send({ path: `/api/invites/${id}` });
    expect(seen.json).toMatchObject({ status: "valid", name: "Web invites", inviter: expect.stringMatching(/^web_/) });
    // signed out, the landing page learns the same
    expect((await new Visitor(web.url).send({ path: `/api/invites/${id}` })).json).toMatchObject({ status: "valid" });

    const join = { channelId: channel.id, verifier: channel.verifier, ecdhPublicKey: fakePublicKey(), inviteId: id };
    expect((await bob.post("/api/channels/join", join)).status).toBe(200);
    const again = await owner.post("/api/channels/join", join);
    expect(again.status).toBe(403);
    expect(again.json).toMatchObject({ message: "This invite has already been used." });

    const access = await alice.send({ path: `/api/channels/${channel.id}/access` });
    expect(access.json).toMatchObject({ manage: "creator", invites: [{ id, uses: 1, status: "used" }] });
    expect((await bob.send({ path: `/api/channels/${channel.id}/access` })).json).toEqual({ manage: "" });

    const open = (await alice.post(`/api/channels/${channel.id}/invites`, { expires: "never", maxUses: 0 })).json as { id: string };
    for (const member of [alice, bob]) {
      expect((await member.send({ path: "/api/admin/invites" })).status).toBe(403);
      expect((await member.post(`/api/admin/invites/${open.id}/revoke`, {})).status).toBe(403);
    }
    const all = await owner.send({ path: "/api/admin/invites" });
    expect(all.status).toBe(200);
    expect((all.json as { invites: { id: string }[] }).invites.map((i) => i.id)).toEqual(expect.arrayContaining([id, open.id]));
    expect((await owner.post(`/api/admin/invites/${open.id}/revoke`, {})).status).toBe(200);
    expect((await bob.send({ path: `/api/invites/${open.id}` })).json).toMatchObject({ status: "revoked" });
  });

  it("a member removed through the web app is banned; the creator lifts the ban there", async () => {
    const channel = await alice.createChannel("Web removal");
    const join = { channelId: channel.id, verifier: channel.verifier, ecdhPublicKey: fakePublicKey() };
    expect((await bob.post("/api/channels/join", join)).status).toBe(200);
    expect((await bob.post(`/api/channels/${channel.id}/members/${alice.userId}/remove`, {})).status).toBe(403);
    expect((await alice.post(`/api/channels/${channel.id}/members/${bob.userId}/remove`, {})).status).toBe(200);
    const refused = await bob.post("/api/channels/join", join);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ message: "You were removed from this channel." });
    expect((await alice.post(`/api/channels/${channel.id}/bans/${bob.userId}/lift`, {})).status).toBe(200);
    expect((await bob.post("/api/channels/join", join)).status).toBe(200);
    expect((await alice.post(`/api/channels/${channel.id}/members/${bob.userId}/admin`, { admin: true })).status).toBe(200);
    expect((await alice.post(`/api/channels/${channel.id}/members/${bob.userId}/admin`, { admin: "yes" })).status).toBe(400);
    expect((await alice.send({ path: `/api/channels/${randomUUID()}/access` })).status).toBe(404);
  });
});
