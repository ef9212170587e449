// Leavers follow the identity provider (docs/decisions/0064-leavers-follow-the-provider.md): a person
// the provider disables is deactivated at their next session refresh and by the minute check, with
// "account.deactivated_by_provider" in the audit log, against the test provider (tools/oidc-provider/).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, signInAtProvider, startProvider, type RunningProvider } from "../oidc-provider";
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
  for (const name of ["bob", "carol", "dave", "olga"]) {
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

  it("keeps everyone when the workspace's own settings are what the provider refuses: a wrong secret, another client", async () => {
    const dave = await sso.ssoSignUp("dave");
    const su = await superuserClient(pb.url, pb.superuser);
    const refresh = () => postJson(pb.url, "/api/collections/users/auth-refresh", {}, dave.token);
    const settings = (change: Record<string, string>) =>
      su.collection("sso_settings").create({ id: "ssosettings0001", issuer: provider.issuer, client_id: OIDC_CLIENT_ID, ...change });
    // a secret mistyped in the console: the provider refuses the client (invalid_client), not the person
    const wrongSecret = await settings({ client_secret: `${OIDC_CLIENT_SECRET}-mistyped` });
    expect((await refresh()).status).toBe(200);
    await su.collection("sso_settings").delete(wrongSecret.id);
    // another client at the same provider: the refresh token is the first client's, which says nothing of the person
    const otherClient = await settings({ client_id: `${OIDC_CLIENT_ID}-second`, client_secret: OIDC_CLIENT_SECRET });
    expect((await refresh()).status).toBe(200);
    await su.collection("sso_settings").delete(otherClient.id);
    expect((await su.collection("profiles").getOne(dave.id)).deactivated).toBe(false);
    expect(await sso.auditActions(dave.id)).not.toContainEqual(expect.objectContaining({ action: "account.deactivated_by_provider" }));
    // the settings put right, the provider is asked again and answers for the person
    expect((await refresh()).status).toBe(200);
  });

  it("never deactivates the owner: the provider's refusal is logged once, and the workspace keeps an owner", async () => {
    const olga = await sso.ssoSignUp("olga");
    const su = await superuserClient(pb.url, pb.superuser);
    await su.collection("profiles").update(olga.id, { role: "owner" });
    await provider.disableUser("olga");
    const refresh = () => postJson(pb.url, "/api/collections/users/auth-refresh", {}, olga.token);
    expect((await refresh()).status).toBe(200);
    expect((await refresh()).status).toBe(200);
    expect((await su.collection("profiles").getOne(olga.id)).deactivated).toBe(false);
    const actions = (await sso.auditActions(olga.id)).map((a) => a.action);
    expect(actions).not.toContain("account.deactivated_by_provider");
    expect(actions.filter((a) => a === "account.provider_refused_owner")).toHaveLength(1);
    await su.collection("profiles").update(olga.id, { role: "member" });
  });
});
