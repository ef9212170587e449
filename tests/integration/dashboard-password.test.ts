// The PocketBase dashboard's user editor (a superuser's records-API update of a user) cannot set a
// person's password: it would leave their encrypted keys unopenable (pb_hooks/dashboard_password.pb.js,
// docs/decisions/0076-export-and-group-renames.md). Other edits there, and the app's own password
// change and reset-code flows, keep working.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  fakeWrappedKey,
  postJson,
  randomSecret,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";

const REFUSED =
  'Setting a password here would leave this person\'s encrypted keys unopenable. Use "Issue a reset code" in the ChatCrypt admin console instead.';

let server: RunningPocketBase;
let owner: TestUser;

beforeAll(async () => {
  server = await startPocketBase();
  owner = await signUpUser(server.url);
});

afterAll(async () => {
  await server?.stop();
});

const signsIn = async (user: TestUser, password: string) =>
  client(server.url)
    .collection("users")
    .authWithPassword(user.email, password)
    .then(
      () => true,
      () => false,
    );

describe("the dashboard's user editor", () => {
  it("refuses a password with a message the dashboard shows, and changes nothing", async () => {
    const person = await signUpUser(server.url);
    const su = await superuserClient(server.url, server.superuser);
    const before = await su.collection("users").getOne(person.id);
    const newPassword = randomSecret();
    for (const body of [
      { password: newPassword, passwordConfirm: newPassword },
      { password: newPassword, passwordConfirm: newPassword, name: "x" },
      { passwordConfirm: newPassword },
    ]) {
      const error = await su
        .collection("users")
        .update(person.id, body)
        .then(
          () => null,
          (e: { status: number; response: { message: string } }) => e,
        );
      expect(error?.status, JSON.stringify(body)).toBe(400);
      expect(error?.response.message).toBe(REFUSED);
    }
    // the same through a multipart form, as the dashboard sends one with files
    const form = new FormData();
    form.append("password", newPassword);
    form.append("passwordConfirm", newPassword);
    const multipart = await fetch(`${server.url}/api/collections/users/records/${person.id}`, {
      method: "PATCH",
      headers: { Authorization: su.authStore.token },
      body: form,
    });
    expect(multipart.status).toBe(400);
    expect(((await multipart.json()) as { message: string }).message).toBe(REFUSED);

    expect(await signsIn(person, newPassword)).toBe(false);
    expect(await signsIn(person, person.password)).toBe(true);
    const after = await su.collection("users").getOne(person.id);
    expect(after.updated).toBe(before.updated);
  });

  it("still saves the superuser's other edits", async () => {
    const person = await signUpUser(server.url);
    const su = await superuserClient(server.url, server.superuser);
    const updated = await su
      .collection("users")
      .update(person.id, { verified: true })
      .catch((e: { response: unknown }) => Promise.reject(new Error(JSON.stringify(e.response))));
    expect(updated.verified).toBe(true);
    expect(await signsIn(person, person.password)).toBe(true);
  });
});

describe("the app's own flows", () => {
  it("the person's own password change still works", async () => {
    const person = await signUpUser(server.url);
    const password = randomSecret();
    const res = await postJson(
      server.url,
      "/api/chat/password",
      {
        current: person.password,
        password,
        encrypted_ecdh_private_key: fakeWrappedKey(),
        encrypted_rsa_private_key: fakeWrappedKey(),
        kdf_iterations: 600_000,
      },
      person.token,
    );
    expect(res.status, res.text).toBe(200);
    expect(await signsIn(person, password)).toBe(true);
  });

  it("a reset code from the admin console still resets the password", async () => {
    const person = await signUpUser(server.url);
    const issued = await postJson(server.url, "/api/chat/admin/people/reset-code", { user_id: person.id }, owner.token);
    expect(issued.status, issued.text).toBe(200);
    const { code } = issued.json as { code: string };
    const redeemed = await postJson(server.url, "/api/chat/password-reset/code", { email: person.email, code });
    expect(redeemed.status, redeemed.text).toBe(200);
    const password = randomSecret();
    const confirmed = await postJson(server.url, "/api/chat/password-reset/confirm", {
      token: (redeemed.json as { token: string }).token,
      password,
      encrypted_ecdh_private_key: fakeWrappedKey(),
      encrypted_rsa_private_key: fakeWrappedKey(),
      kdf_iterations: 600_000,
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(await signsIn(person, password)).toBe(true);
  });
});
