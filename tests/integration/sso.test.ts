// Single sign-on against a real OpenID Connect provider on loopback (tools/oidc-provider/) and our
// PocketBase (docs/decisions/0063-single-sign-on.md, 0064-leavers-follow-the-provider.md): a new
// provider account creates its ChatCrypt account with keys made in the browser, a known one signs in
// to it; allowed domains, an existing email, hostile input (4xx); the console's settings (the secret
// never answered back, "Require single sign-on" the owner's); password sign-in refused while required
// except the owner's. Leavers: sso-leavers.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OIDC_CLIENT_SECRET, startProvider, type RunningProvider } from "../oidc-provider";
import { signedInClient, startWebServer } from "./web-session";
import { postJson, signUpUser, signupBody, startPocketBase, superuserClient, type RunningPocketBase, type TestUser } from "./pocketbase";
import { SSO_CALLBACK, ssoClient } from "./sso-client";

let provider: RunningProvider;
let pb: RunningPocketBase;
let owner: TestUser;
let member: TestUser;
let admin: TestUser;
let twin: TestUser;
let sso: ReturnType<typeof ssoClient>;

beforeAll(async () => {
  provider = await startProvider([SSO_CALLBACK]);
  pb = await startPocketBase({ env: provider.env });
  sso = ssoClient(pb);
  owner = await signUpUser(pb.url);
  [member, admin] = await Promise.all([signUpUser(pb.url), signUpUser(pb.url)]);
  const su = await superuserClient(pb.url, pb.superuser);
  await su.collection("profiles").update(admin.id, { role: "admin" });
  for (const name of ["alice", "bob", "carol", "dave"]) {
    await provider.addUser({ username: name, password: "correct horse", email: `${name}@example.com`, name });
  }
  await provider.addUser({ username: "mallory", password: "correct horse", email: "mallory@elsewhere.test" });
  twin = await signUpUser(pb.url, { email: "twin@example.com" });
  await attach(twin);
  await provider.addUser({ username: "twin", password: "correct horse", email: "twin@example.com" });
}, 5 * 60_000);

/** The address becomes the account's, as opening its emailed link does: only then is it offered for linking. */
async function attach(user: TestUser) {
  const su = await superuserClient(pb.url, pb.superuser);
  await su.collection("users").update(user.id, { email: user.email, pending_email: "", verified: true });
}

afterAll(async () => {
  await pb?.stop();
  await provider?.stop();
});

describe("signing in with the provider", () => {
  it("tells the sign-in screen the provider's name", async () => {
    const res = await fetch(`${pb.url}/api/chat/sso`);
    expect(await res.json()).toEqual({ enabled: true, name: "Acme ID", required: false });
  });

  it("creates a new person's account with the browser's keys and a role, then signs them in to it", async () => {
    const first = await sso.ssoSignIn("alice");
    expect(first.status).toBe(200);
    expect(first.json.token).toBeUndefined();
    expect(first.json.signup).toMatchObject({ email: "alice@example.com", username: "alice" });
    const { id } = await sso.ssoSignUp("alice");
    const su = await superuserClient(pb.url, pb.superuser);
    expect((await su.collection("profiles").getOne(id)).role).toBe("member");
    expect((await su.collection("users").getOne(id)).verified).toBe(true);
    const again = await sso.ssoSignIn("alice");
    expect(again.status).toBe(200);
    expect(again.json.record?.id).toBe(id);
    expect(again.json.token).toBeTruthy();
    const actions = await sso.auditActions(id);
    expect(actions.map((a) => a.action)).toEqual(["account.created", "signin.succeeded"]);
    expect(actions[1].details).toEqual({ method: "sso" });
  });

  it("refuses an email domain that is not allowed", async () => {
    const outsider = await sso.ssoSignIn("mallory");
    expect(outsider.status).toBe(403);
    expect(outsider.json.message).toBe("Accounts with this email address cannot sign in here.");
  });

  it("refuses a linked account whose domain is no longer allowed, except the owner's", async () => {
    const alice = await sso.ssoSignIn("alice");
    expect(alice.json.token).toBeTruthy();
    const aliceId = alice.json.record!.id;
    expect((await postJson(pb.url, "/api/chat/admin/sso", { allowed_domains: "acme.test" }, admin.token)).status).toBe(200);
    try {
      const refused = await sso.ssoSignIn("alice");
      expect(refused.status).toBe(403);
      expect(refused.json.message).toBe("Accounts with this email address cannot sign in here.");
      expect(refused.json.token).toBeUndefined();
      // (the owner is not locked out by a setting of their own)
      const su = await superuserClient(pb.url, pb.superuser);
      await su.collection("profiles").update(aliceId, { role: "owner" });
      try {
        const asOwner = await sso.ssoSignIn("alice");
        expect(asOwner.status).toBe(200);
        expect(asOwner.json.token).toBeTruthy();
      } finally {
        await su.collection("profiles").update(aliceId, { role: "member" });
      }
    } finally {
      expect((await postJson(pb.url, "/api/chat/admin/sso", { allowed_domains: "example.com" }, admin.token)).status).toBe(200);
    }
    expect((await sso.ssoSignIn("alice")).json.token).toBeTruthy();
  });

  it("links a password account with the same email after its password, once, keeping its keys", async () => {
    const su = await superuserClient(pb.url, pb.superuser);
    const keys = async () => {
      const [user, profile] = [await su.collection("users").getOne(twin.id), await su.collection("profiles").getOne(twin.id)];
      return [user.encrypted_ecdh_private_key, user.encrypted_rsa_private_key, profile.ecdh_public_key, profile.rsa_public_key];
    };
    const before = await keys();
    const first = await sso.ssoSignIn("twin");
    expect(first.status).toBe(200);
    expect(first.json.token).toBeUndefined();
    expect(first.json.link).toEqual({ ticket: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), email: "twin@example.com" });
    const ticket = first.json.link!.ticket;
    const link = (body: unknown) => postJson(pb.url, "/api/chat/sso/link", body);
    const wrong = await link({ ticket, login_secret: "x".repeat(43) });
    expect(wrong.status).toBe(400);
    expect((wrong.json as { message: string }).message).toBe(
      "This is not the password of the account with this email address. Check it and try again.",
    );
    expect((await link({ ticket: "z".repeat(43), login_secret: twin.password })).status).toBe(400);
    expect((await link({ ticket, login_secret: 42 })).status).toBe(400);
    const linked = await link({ ticket, login_secret: twin.password });
    expect(linked.status, linked.text).toBe(200);
    expect((linked.json as { record: { id: string }; token: string }).record.id).toBe(twin.id);
    expect(await keys()).toEqual(before);
    expect((await link({ ticket, login_secret: twin.password })).status).toBe(400);
    // from now on the provider signs the account in; its password still works too
    const again = await sso.ssoSignIn("twin");
    expect(again.json.record?.id).toBe(twin.id);
    expect(again.json.token).toBeTruthy();
    const withPassword = await postJson(pb.url, "/api/collections/users/auth-with-password", {
      identity: twin.email,
      password: twin.password,
    });
    expect(withPassword.status).toBe(200);
    const actions = await sso.auditActions(twin.id);
    expect(actions).toContainEqual({ action: "sso.linked", actor: twin.id, details: { issuer: provider.issuer } });
  });

  it("ends a linking ticket after five wrong passwords", async () => {
    const erin = await signUpUser(pb.url, { email: "erin@example.com" });
    await attach(erin);
    await provider.addUser({ username: "erin", password: "correct horse", email: "erin@example.com" });
    const { ticket } = (await sso.ssoSignIn("erin")).json.link!;
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await postJson(pb.url, "/api/chat/sso/link", { ticket, login_secret: `${i}`.repeat(43) }));
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 400]);
    expect((answers[4].json as { message: string }).message).toBe("Too many wrong passwords. Start again with the identity provider.");
    const expired = await postJson(pb.url, "/api/chat/sso/link", { ticket, login_secret: "a".repeat(43) });
    expect((expired.json as { message: string }).message).toBe("This sign-in has expired or was already used. Start again.");
  });

  it("answers hostile input with a 4xx and keeps a sign-up ticket usable after a refused attempt", async () => {
    expect((await postJson(pb.url, "/api/chat/sso/begin", { redirect_url: "https://evil.test/steal" })).status).toBe(400);
    expect((await postJson(pb.url, "/api/chat/sso/begin", [])).status).toBe(400);
    expect((await postJson(pb.url, "/api/chat/sso/finish", { state: "x".repeat(43), code: "abc" })).status).toBe(400);
    expect((await postJson(pb.url, "/api/chat/sso/finish", { state: 5, code: {} })).status).toBe(400);
    // a provider that cannot be reached: 502 with a text, never a 500
    await postJson(pb.url, "/api/chat/admin/sso", { issuer: "http://127.0.0.1:9/" }, admin.token);
    const down = await postJson(pb.url, "/api/chat/sso/begin", { redirect_url: SSO_CALLBACK });
    await postJson(pb.url, "/api/chat/admin/sso", { issuer: "" }, admin.token);
    expect(down.status).toBe(502);
    expect((down.json as { message: string }).message).toBe("The identity provider cannot be reached right now. Try again later.");
    const begun = (await postJson(pb.url, "/api/chat/sso/begin", { redirect_url: SSO_CALLBACK })).json as { state: string };
    const forged = await postJson(pb.url, "/api/chat/sso/finish", { state: begun.state, code: "not-a-code" });
    expect(forged.status).toBe(400);
    // the state was used up
    expect((await postJson(pb.url, "/api/chat/sso/finish", { state: begun.state, code: "not-a-code" })).status).toBe(400);

    const first = await sso.ssoSignIn("dave");
    const ticket = first.json.signup!.ticket;
    expect((await postJson(pb.url, "/api/chat/sso/signup", { ...signupBody(), ticket: "y".repeat(43) })).status).toBe(400);
    expect((await postJson(pb.url, "/api/chat/sso/signup", { ...signupBody(), ticket, id: "NOT AN ID" })).status).toBe(400);
    const taken = await postJson(pb.url, "/api/chat/sso/signup", { ...signupBody({ username: member.username }), ticket });
    expect(taken.status).toBe(400);
    expect((await postJson(pb.url, "/api/chat/sso/signup", { ...signupBody({ username: "dave" }), ticket })).status).toBe(200);
    expect((await postJson(pb.url, "/api/chat/sso/signup", { ...signupBody({ username: "dave2" }), ticket })).status).toBe(400);
  });
});

describe("the console's settings", () => {
  it("lets administrators read and change them, never shows the secret, and leaves requiring it to the owner", async () => {
    expect((await fetch(`${pb.url}/api/chat/admin/sso`)).status).toBe(401);
    expect((await postJson(pb.url, "/api/chat/admin/sso", { name: "X" }, member.token)).status).toBe(403);
    const seen = await fetch(`${pb.url}/api/chat/admin/sso`, { headers: { Authorization: admin.token } });
    const settings = (await seen.json()) as Record<string, unknown>;
    expect(settings).toMatchObject({ issuer: provider.issuer, client_id: "chatcrypt", client_secret_set: true, name: "Acme ID" });
    expect(JSON.stringify(settings)).not.toContain("chatcrypt-test-secret");
    expect((await postJson(pb.url, "/api/chat/admin/sso", { issuer: "ftp://x" }, admin.token)).status).toBe(400);
    expect((await postJson(pb.url, "/api/chat/admin/sso", { allowed_domains: "exa mple..com" }, admin.token)).status).toBe(400);
    expect((await postJson(pb.url, "/api/chat/admin/sso", { required: "yes" }, owner.token)).status).toBe(400);
    expect((await postJson(pb.url, "/api/chat/admin/sso", { required: true }, admin.token)).status).toBe(403);
    const renamed = await postJson(pb.url, "/api/chat/admin/sso", { name: "Acme Login", client_secret: "" }, admin.token);
    expect(renamed.status).toBe(200);
    expect((renamed.json as { client_secret_set: boolean }).client_secret_set).toBe(true);
    expect(await (await fetch(`${pb.url}/api/chat/sso`)).json()).toMatchObject({ name: "Acme Login" });
    const entries = await superuserClient(pb.url, pb.superuser).then((su) =>
      su.collection("audit_log").getFullList({ filter: 'action = "settings.changed"' }),
    );
    expect(entries.at(-1)?.details).toEqual({ section: "single_sign_on", settings: ["name"] });
    await postJson(pb.url, "/api/chat/admin/sso", { name: "Acme ID" }, admin.token);

    // The console sends its whole form, each field as it was shown (values in force, from the environment
    // or the defaults among them): only what the admin edited is a change, and nothing else is stored.
    const shown = (await (await fetch(`${pb.url}/api/chat/admin/sso`, { headers: { Authorization: admin.token } })).json()) as Record<
      string,
      unknown
    >;
    const form = { ...pick(shown, ["issuer", "client_id", "username_claim", "allowed_domains"]), client_secret: "", name: "Acme Staff" };
    expect((await postJson(pb.url, "/api/chat/admin/sso", form, admin.token)).status).toBe(200);
    const after = await superuserClient(pb.url, pb.superuser).then((su) =>
      su.collection("audit_log").getFullList({ filter: 'action = "settings.changed"' }),
    );
    expect(after.at(-1)?.details).toEqual({ section: "single_sign_on", settings: ["name"] });
    // (sent again unchanged: nothing changed, nothing logged)
    expect((await postJson(pb.url, "/api/chat/admin/sso", form, admin.token)).status).toBe(200);
    expect(
      await superuserClient(pb.url, pb.superuser).then((su) =>
        su.collection("audit_log").getFullList({ filter: 'action = "settings.changed"' }),
      ),
    ).toHaveLength(after.length);
    await postJson(pb.url, "/api/chat/admin/sso", { name: "Acme ID" }, admin.token);
  });

  it("refuses password sign-in and sign-up while single sign-on is required, except the owner's sign-in", async () => {
    expect((await postJson(pb.url, "/api/chat/admin/sso", { required: true }, owner.token)).status).toBe(200);
    const refused = await postJson(pb.url, "/api/collections/users/auth-with-password", {
      identity: member.email,
      password: member.password,
    });
    expect(refused.status).toBe(403);
    expect((refused.json as { message: string }).message).toBe('This workspace requires single sign-on. Use "Sign in with Acme ID".');
    const ownerIn = await postJson(pb.url, "/api/collections/users/auth-with-password", {
      identity: owner.email,
      password: owner.password,
    });
    expect(ownerIn.status).toBe(200);
    expect((await postJson(pb.url, "/api/chat/signup", signupBody())).status).toBe(403);
    expect((await postJson(pb.url, "/api/chat/admin/sso", { required: false }, owner.token)).status).toBe(200);
    const back = await postJson(pb.url, "/api/collections/users/auth-with-password", { identity: member.email, password: member.password });
    expect(back.status).toBe(200);
  });
});

describe("turned off in the console", () => {
  it("is refused while it is required, with what to do first; then allowed", async () => {
    // (a server whose provider is set in the console, not in its environment)
    const plain = await startPocketBase();
    try {
      const boss = await signUpUser(plain.url);
      const set = (body: unknown) => postJson(plain.url, "/api/chat/admin/sso", body, boss.token);
      expect((await set({ issuer: "https://id.example.com", client_id: "chatcrypt", required: true })).status).toBe(200);
      for (const off of [{ issuer: "" }, { client_id: "" }]) {
        const kept = await set(off);
        expect([kept.status, (kept.json as { message: string }).message]).toEqual([
          400,
          'Untick "Require single sign-on" first: while it is required, people sign in only through the provider, which needs an issuer and a client id.',
        ]);
      }
      expect(await (await fetch(`${plain.url}/api/chat/sso`)).json()).toMatchObject({ enabled: true, required: true });
      expect((await set({ required: false })).status).toBe(200);
      expect((await set({ issuer: "" })).status).toBe(200);
      expect(await (await fetch(`${plain.url}/api/chat/sso`)).json()).toMatchObject({ enabled: false, required: false });
    } finally {
      await plain.stop();
    }
  });
});

describe("the web server's side", () => {
  it("reads and saves the console's settings for administrators only, and keeps the state in this browser's cookie", async () => {
    const web = await startWebServer(pb.url);
    try {
      const asAdmin = await signedInClient(web.url, admin);
      const seen = (await asAdmin.api("/api/admin/sso")) as Record<string, unknown>;
      expect(seen).toMatchObject({ client_id: "chatcrypt", client_secret_set: true });
      expect(JSON.stringify(seen)).not.toContain(OIDC_CLIENT_SECRET);
      await expect(asAdmin.api("/api/admin/sso", { bogus: 1 })).rejects.toMatchObject({ status: 400 });
      await expect(asAdmin.api("/api/admin/sso", { issuer: "not a url" })).rejects.toMatchObject({ status: 400 });
      const asMember = await signedInClient(web.url, member);
      await expect(asMember.api("/api/admin/sso")).rejects.toMatchObject({ status: 403 });
      const start = await fetch(`${web.url}/auth/sso/start`, { redirect: "manual" });
      expect(start.status).toBe(302);
      expect(start.headers.get("location")).toContain(provider.issuer);
      expect(start.headers.get("set-cookie")).toMatch(/chatcrypt_sso=[^;]+;.*HttpOnly/i);
      // a callback without this browser's state cookie finishes nothing
      const elsewhere = await fetch(`${web.url}/auth/sso/callback?code=x&state=${"y".repeat(43)}`);
      expect(elsewhere.status).toBe(200);
      expect(await elsewhere.text()).toContain("This sign-in has expired or was started in another browser. Start again.");
    } finally {
      await web.stop();
    }
  });
});

const pick = (from: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, from[k]]));
