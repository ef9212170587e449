// Leavers follow the identity provider (docs/decisions/0064-leavers-follow-the-provider.md): a person
// the provider disables is deactivated at their next session refresh and by the minute check, with
// "account.deactivated_by_provider" in the audit log, against the test provider (tools/oidc-provider/).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAtProvider, startProvider, type RunningProvider } from "../oidc-provider";
import { postJson, signUpUser, startPocketBase, superuserClient, type RunningPocketBase, type TestUser } from "./pocketbase";
import { GONE, SSO_CALLBACK, ssoClient } from "./sso-client";

let provider: RunningProvider;
let pb: RunningPocketBase;
let sso: ReturnType<typeof ssoClient>;
let owner: TestUser; // the workspace's first account

beforeAll(async () => {
  provider = await startProvider([SSO_CALLBACK]);
  pb = await startPocketBase({ env: provider.env });
  sso = ssoClient(pb);
  owner = await signUpUser(pb.url);
  for (const name of ["bob", "carol"]) {
    await provider.addUser({ username: name, password: "correct horse", email: `${name}@example.com`, name });
  }
}, 5 * 60_000);

afterAll(async () => {
  await pb?.stop();
  await provider?.stop();
});

describe("leavers follow the provider", () => {
  it("deactivates a person the provider disabled at their next session refresh, and refuses their sign-in", async () => {
    const bob = await sso.ssoSignUp("bob");
    // (the console says who signs in with single sign-on: its reset code's question says what a code does then)
    const people = await fetch(`${pb.url}/api/chat/admin/people`, { headers: { Authorization: owner.token } }).then(
      (r) => r.json() as Promise<{ people: { id: string; sso: boolean }[] }>,
    );
    expect(people.people.map((p) => [p.id, p.sso]).sort()).toEqual(
      [
        [bob.id, true],
        [owner.id, false],
      ].sort(),
    );
    const refresh = () => postJson(pb.url, "/api/collections/users/auth-refresh", {}, bob.token);
    const fresh = await refresh();
    expect(fresh.status).toBe(200);
    await provider.disableUser("bob");
    const refused = await refresh();
    expect(refused.status).toBe(403);
    const su = await superuserClient(pb.url, pb.superuser);
    expect((await su.collection("profiles").getOne(bob.id)).deactivated).toBe(true);
    const actions = await sso.auditActions(bob.id);
    expect(actions).toContainEqual({ action: "account.deactivated_by_provider", actor: "", details: { channels: 0 } });
    // the provider's own login refuses him; were it to let him in again, we still would not
    expect((await signInAtProvider((await sso.beginUrl()).url, "bob", "correct horse")).error).toBe("username or password wrong");
    await provider.addUser({ username: "bob", password: "correct horse", email: "bob@example.com" });
    const again = await sso.ssoSignIn("bob");
    expect(again.status).toBe(403);
    expect(again.json.message).toBe(GONE);
    // An administrator reactivates him: the provider's earlier refusal no longer keeps him out.
    const reactivated = await postJson(pb.url, "/api/chat/admin/people/reactivate", { user_id: bob.id }, owner.token);
    expect(reactivated.status, reactivated.text).toBe(200);
    const back = await sso.ssoSignIn("bob");
    expect(back.status, JSON.stringify(back.json)).toBe(200);
    expect(back.json.record?.id).toBe(bob.id);
  });

  it("deactivates a disabled person within the minute, without any request from them", async () => {
    const carol = await sso.ssoSignUp("carol");
    await provider.disableUser("carol");
    const su = await superuserClient(pb.url, pb.superuser);
    const deadline = Date.now() + 125_000;
    while (!(await su.collection("profiles").getOne(carol.id)).deactivated) {
      if (Date.now() > deadline) throw new Error("carol was not deactivated by the minute check");
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect((await sso.auditActions(carol.id)).map((a) => a.action)).toContain("account.deactivated_by_provider");
  }, 150_000);
});
