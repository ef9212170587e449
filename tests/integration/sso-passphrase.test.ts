// A first single sign-on set up with a passkey (docs/decisions/0081-a-passkey-first-and-search-after-a-sweep.md):
// the account is created with its keys wrapped under a secret the browser forgot, and the encryption
// passphrase chosen after the passkey replaces that wrapping once, with the sign-up's ticket, by the
// account itself. Another account, a second time, a sign-up that did not ask for it, malformed keys:
// 4xx, and the wrapping stays. Against the real loopback provider (tools/oidc-provider/).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProvider, signInAtProvider, type RunningProvider } from "../oidc-provider";
import { fakeWrappedKey, postJson, signUpUser, signupBody, startPocketBase, superuserClient, type RunningPocketBase } from "./pocketbase";

const CALLBACK = "http://127.0.0.1:3999/auth/sso/callback";

let provider: RunningProvider;
let pb: RunningPocketBase;

/** A first sign-in at the provider and the account's creation; answers its id, token and ticket. */
async function signUp(username: string, passphraseLater: boolean) {
  await provider.addUser({ username, password: "correct horse", email: `${username}@example.com` });
  const begun = await postJson(pb.url, "/api/chat/sso/begin", { redirect_url: CALLBACK });
  const { url, state } = begun.json as { url: string; state: string };
  const { callback } = await signInAtProvider(url, username, "correct horse");
  const finished = await postJson(pb.url, "/api/chat/sso/finish", { state, code: callback!.searchParams.get("code") });
  const { ticket } = (finished.json as { signup: { ticket: string } }).signup;
  const keys = signupBody({ username });
  const created = await postJson(pb.url, "/api/chat/sso/signup", {
    ...keys,
    ticket,
    ...(passphraseLater ? { passphrase_later: true } : {}),
  });
  expect(created.status, created.text).toBe(200);
  return { id: keys.id, token: (created.json as { token: string }).token, ticket, wrapped: keys.encrypted_ecdh_private_key };
}

const wrapping = () => ({
  encrypted_ecdh_private_key: fakeWrappedKey(),
  encrypted_rsa_private_key: fakeWrappedKey(),
  kdf_iterations: 600_000,
});
const stored = async (id: string) =>
  (await (await superuserClient(pb.url, pb.superuser)).collection("users").getOne(id)).encrypted_ecdh_private_key;

beforeAll(async () => {
  provider = await startProvider([CALLBACK]);
  pb = await startPocketBase({ env: provider.env });
  await signUpUser(pb.url); // the owner
}, 5 * 60_000);

afterAll(async () => {
  await pb?.stop();
  await provider?.stop();
});

describe("the passphrase after a passkey", () => {
  it("replaces the first wrapping once, for the account that signed up, and never changes its login", async () => {
    const erin = await signUp("erin", true);
    const frank = await signUp("frank", true);
    const passphrase = wrapping();
    // not signed in, another account, malformed keys: refused, nothing changes
    expect((await postJson(pb.url, "/api/chat/sso/passphrase", { ticket: erin.ticket, ...passphrase })).status).toBe(401);
    expect((await postJson(pb.url, "/api/chat/sso/passphrase", { ticket: erin.ticket, ...passphrase }, frank.token)).status).toBe(403);
    for (const bad of [{ encrypted_ecdh_private_key: "x" }, { kdf_iterations: 5 }, { ticket: "short" }, { ticket: 42 }]) {
      const res = await postJson(pb.url, "/api/chat/sso/passphrase", { ticket: erin.ticket, ...passphrase, ...bad }, erin.token);
      expect([bad, res.status]).toEqual([bad, 400]);
    }
    expect(await stored(erin.id)).toBe(erin.wrapped);

    const saved = await postJson(pb.url, "/api/chat/sso/passphrase", { ticket: erin.ticket, ...passphrase }, erin.token);
    expect(saved.status, saved.text).toBe(200);
    expect(await stored(erin.id)).toBe(passphrase.encrypted_ecdh_private_key);
    // the session goes on (no new login secret: a passphrase never signs in)
    const refreshed = await fetch(`${pb.url}/api/collections/users/auth-refresh`, {
      method: "POST",
      headers: { Authorization: erin.token },
    });
    expect(refreshed.status).toBe(200);

    // once only
    const again = await postJson(pb.url, "/api/chat/sso/passphrase", { ticket: erin.ticket, ...wrapping() }, erin.token);
    expect(again.status).toBe(400);
    expect(await stored(erin.id)).toBe(passphrase.encrypted_ecdh_private_key);
  });

  it("is refused after a sign-up with a passphrase (nothing asked for it)", async () => {
    const gina = await signUp("gina", false);
    const res = await postJson(pb.url, "/api/chat/sso/passphrase", { ticket: gina.ticket, ...wrapping() }, gina.token);
    expect(res.status).toBe(400);
    expect((res.json as { message: string }).message).toBe("This sign-in has expired or was already used. Start again.");
    expect(await stored(gina.id)).toBe(gina.wrapped);
  });
});
