// Workspace roles (docs/decisions/0053-roles.md): the first account owns the workspace, every later one
// is a member, and nobody can write a role through PocketBase's API but the superuser.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  colleagues,
  postJson,
  signUpUser,
  startPocketBase,
  statusOf,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";

let server: RunningPocketBase;
let first: TestUser;
let second: TestUser;

beforeAll(async () => {
  server = await startPocketBase();
  first = await signUpUser(server.url);
  second = await signUpUser(server.url);
  await colleagues(first, second); // each sees the other's profile (ADR 0077)
});

afterAll(async () => {
  await server?.stop();
});

describe("roles", () => {
  it("the first account is the owner and the next one a member, shown on the public profile", async () => {
    expect((await second.pb.collection("profiles").getOne(first.id)).role).toBe("owner");
    expect((await first.pb.collection("profiles").getOne(second.id)).role).toBe("member");
  });

  it("a member cannot make themselves owner or admin, through the profile or the account record", async () => {
    expect(await statusOf(second.pb.collection("profiles").update(second.id, { role: "owner" }))).toBe(403);
    // an unknown field on the account record changes nothing anywhere
    await second.pb
      .collection("users")
      .update(second.id, { role: "owner" })
      .catch(() => undefined);
    expect((await second.pb.collection("profiles").getOne(second.id)).role).toBe("member");
  });

  it("the superuser can name another owner in the dashboard", async () => {
    const su = await superuserClient(server.url, server.superuser);
    await su.collection("profiles").update(second.id, { role: "admin" });
    expect((await first.pb.collection("profiles").getOne(second.id)).role).toBe("admin");
    expect(await statusOf(su.collection("profiles").update(second.id, { role: "emperor" }))).toBe(400);
    await su.collection("profiles").update(second.id, { role: "member" });
  });

  it("deleting the first account does not make the next sign-up an owner", async () => {
    const deleted = await postJson(server.url, "/api/chat/account/delete", { password: first.password }, first.token);
    expect(deleted.status, deleted.text).toBe(200);
    const su = await superuserClient(server.url, server.superuser);
    expect(await su.collection("profiles").getFullList({ filter: 'role = "owner"' })).toHaveLength(0);
    const third = await signUpUser(server.url);
    expect((await su.collection("profiles").getOne(third.id)).role).toBe("member");
  });
});
