// The account's own data against a real PocketBase mailing through a real SMTP server on loopback
// (pb_hooks/account_data.pb.js): changing the email address through the emailed link, and deleting the
// account (the export: account-export.test.ts).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCaptureServer, type CaptureServer } from "./smtp";
import { CONFIRM_SUBJECT, signUpConfirmed } from "./signup-link";
import {
  client,
  createChannel,
  fakeCiphertext,
  fakeWrappedKey,
  joinChannel,
  postJson,
  postMessage,
  randomSecret,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";

let smtp: CaptureServer;
let pb: RunningPocketBase;

beforeAll(async () => {
  smtp = await startCaptureServer();
  pb = await startPocketBase({
    env: { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), SMTP_TLS: "false", APP_URL: "https://chat.example.test" },
  });
});

afterAll(async () => {
  await pb?.stop();
  await smtp?.stop();
});

const admin = () => superuserClient(pb.url, pb.superuser);
const call = (route: string, body: unknown, user?: TestUser) => postJson(pb.url, route, body, user?.token);
const messageOf = (answer: { json: unknown }) => (answer.json as { message?: string }).message;

/** The session check every web request makes: 200 while the token works. */
const sessionStatus = async (token: string) => (await fetch(`${pb.url}/api/chat/session`, { headers: { Authorization: token } })).status;

async function signInStatus(email: string, password: string) {
  try {
    await client(pb.url).collection("users").authWithPassword(email, password);
    return 200;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

/** Asks for an email change and answers the token of the link mailed to the new address. */
async function linkToken(user: TestUser, newEmail: string) {
  const asked = await call("/api/chat/account/email-change", { new_email: newEmail, password: user.password }, user);
  expect(asked.status, asked.text).toBe(200);
  await expect.poll(() => smtp.mailsTo(newEmail).length, { timeout: 10_000 }).toBeGreaterThan(0);
  const mail = smtp.mailsTo(newEmail).at(-1)!;
  const link = /href="([^"]+)"/.exec(mail.html)?.[1] ?? "";
  expect(link).toMatch(/^https:\/\/chat\.example\.test\/change-email#token=/);
  return decodeURIComponent(link.split("#token=")[1]);
}

describe("changing the email address", () => {
  it("is mailed to the new address only after the password, and confirmed with new secrets and keys in one step", async () => {
    const alice = await signUpConfirmed(pb.url, smtp);
    // what reaches her old address besides her sign-up link and sign-in alerts
    const toAlice = () =>
      smtp.mailsTo(alice.email).filter((mail) => ![CONFIRM_SUBJECT, "Login from a new location"].includes(mail.subject));
    const newEmail = `moved-${alice.id}@example.test`;

    const wrong = await call("/api/chat/account/email-change", { new_email: newEmail, password: randomSecret() }, alice);
    expect([wrong.status, messageOf(wrong)]).toEqual([400, "Incorrect password."]);
    expect(smtp.mailsTo(newEmail)).toHaveLength(0);
    const anonymous = await call("/api/chat/account/email-change", { new_email: newEmail, password: alice.password });
    expect(anonymous.status).toBe(401);
    const same = await call("/api/chat/account/email-change", { new_email: alice.email.toUpperCase(), password: alice.password }, alice);
    expect([same.status, messageOf(same)]).toEqual([400, "This is already your email address."]);
    const bob = await signUpUser(pb.url);
    // an address with an account: answered as a free one (tests/integration/email-taken.test.ts)
    const taken = await call("/api/chat/account/email-change", { new_email: bob.email, password: alice.password }, alice);
    expect([taken.status, taken.json]).toEqual([200, { sent: true, newEmail: bob.email }]);

    const token = await linkToken(alice, newEmail);
    expect(smtp.mailsTo(newEmail).at(-1)!.subject).toBe("Confirm your new email address for ChatCrypt");
    // nothing changed yet
    expect(await signInStatus(alice.email, alice.password)).toBe(200);

    // the link's page asks first whether the link works (no password): the addresses it names
    const check = (t: string) => call("/api/chat/account/email-change/check", { token: t });
    const works = await check(token);
    expect([works.status, works.json]).toEqual([200, { email: alice.email, new_email: newEmail }]);
    for (const bad of ["", "not-a-token", `${token.slice(0, -4)}AAAA`, 42, null])
      expect((await check(bad as string)).status, String(bad)).toBe(400);
    // the link's page: the wrapped keys, for the owner's password only
    for (const bad of ["", "not-a-token", `${token.slice(0, -4)}AAAA`])
      expect((await call("/api/chat/account/email-change/keys", { token: bad, password: alice.password })).status).toBe(400);
    const notHers = await call("/api/chat/account/email-change/keys", { token, password: bob.password });
    expect([notHers.status, messageOf(notHers)]).toEqual([400, "Incorrect password."]);
    const keys = await call("/api/chat/account/email-change/keys", { token, password: alice.password });
    expect(keys.status, keys.text).toBe(200);
    expect(keys.json).toMatchObject({
      id: alice.id,
      email: alice.email,
      new_email: newEmail,
      encrypted_ecdh_private_key: alice.record.encrypted_ecdh_private_key ?? expect.any(String),
      kdf_iterations: 600_000,
    });

    // PocketBase's own confirmation would change the address without the new secret: refused
    const own = await fetch(`${pb.url}/api/collections/users/confirm-email-change`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token, password: alice.password }),
    });
    expect(own.status).toBe(400);

    const newSecret = randomSecret();
    const rewrapped = { ecdh: fakeWrappedKey(), rsa: fakeWrappedKey() };
    const confirm = (overrides: Record<string, unknown> = {}) =>
      call("/api/chat/account/email-change/confirm", {
        token,
        password: alice.password,
        new_password: newSecret,
        encrypted_ecdh_private_key: rewrapped.ecdh,
        encrypted_rsa_private_key: rewrapped.rsa,
        kdf_iterations: 600_000,
        ...overrides,
      });
    expect((await confirm({ password: randomSecret() })).status).toBe(400);
    expect((await confirm({ new_password: "short" })).status).toBe(400);
    expect((await confirm({ encrypted_rsa_private_key: "x".repeat(9000) })).status).toBe(400);
    // a refused step changed nothing
    expect(await signInStatus(alice.email, alice.password)).toBe(200);

    expect(toAlice()).toHaveLength(0);
    const done = await confirm();
    expect(done.status, done.text).toBe(200);
    expect(done.json).toEqual({ id: alice.id, email: newEmail });
    // used: the page says so before asking the password
    const used = await check(token);
    expect([used.status, messageOf(used)]).toEqual([400, "This link is invalid or has expired. Ask for a new one in Menu > Account."]);
    // the old address is told, with what to do if it was not the account's owner
    await expect.poll(() => toAlice().length, { timeout: 10_000 }).toBe(1);
    const notice = toAlice()[0];
    expect(notice.subject).toBe("Your ChatCrypt email address was changed");
    expect(notice.text).toContain(`The email address of your ChatCrypt account was changed from ${alice.email} to ${newEmail}.`);

    expect(await signInStatus(alice.email, alice.password)).toBe(400);
    expect(await signInStatus(alice.email, newSecret)).toBe(400);
    expect(await signInStatus(newEmail, alice.password)).toBe(400);
    expect(await signInStatus(newEmail, newSecret)).toBe(200);
    const stored = await (await admin()).collection("users").getOne(alice.id);
    expect(stored).toMatchObject({
      email: newEmail,
      verified: true,
      encrypted_ecdh_private_key: rewrapped.ecdh,
      encrypted_rsa_private_key: rewrapped.rsa,
    });
    // every session of the account ended, and the link works once
    expect(await sessionStatus(alice.token)).toBe(401);
    expect((await confirm()).status).toBe(400);
  });

  it("refuses malformed requests with a clear 4xx", async () => {
    const carol = await signUpUser(pb.url);
    for (const body of [{}, { new_email: "nope", password: carol.password }, { new_email: 42 }, { new_email: "a@b.co", password: 7 }]) {
      const answer = await call("/api/chat/account/email-change", body, carol);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(messageOf(answer)).toBeTruthy();
    }
    const own = await fetch(`${pb.url}/api/collections/users/request-email-change`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: carol.token },
      body: JSON.stringify({ newEmail: `other-${carol.id}@example.test` }),
    });
    expect(own.status).toBe(400);
  });
});

describe("deleting the account", () => {
  it("needs the account's own password, signed in", async () => {
    const alice = await signUpUser(pb.url);
    const bob = await signUpUser(pb.url);
    expect((await call("/api/chat/account/delete", { password: alice.password })).status).toBe(401);
    // Bob's session deletes only Bob, and only with Bob's password
    const withHers = await call("/api/chat/account/delete", { password: alice.password, id: alice.id }, bob);
    expect([withHers.status, messageOf(withHers)]).toEqual([400, "Incorrect password."]);
    for (const body of [{}, { password: 1 }, { password: "" }])
      expect((await call("/api/chat/account/delete", body, alice)).status).toBe(400);
    expect(await sessionStatus(alice.token)).toBe(200);
    expect(await sessionStatus(bob.token)).toBe(200);
  });

  it("removes everything of the account but its messages; its channels go to their first member; the email signs up again", async () => {
    const alice = await signUpUser(pb.url);
    const bob = await signUpUser(pb.url);
    const shared = await createChannel(alice, "Alice and Bob");
    const alone = await createChannel(alice, "Alice alone");
    const bobs = await createChannel(bob, "Bob's");
    expect((await joinChannel(bob, shared)).status).toBe(200);
    expect((await joinChannel(alice, bobs)).status).toBe(200);
    const kept = await postMessage(alice, bobs.id);
    await postMessage(alice, alone.id);
    await alice.pb.collection("whatsapp_contacts").create({ user: alice.id, name: fakeCiphertext(), phone_number: fakeCiphertext() });
    const pinFor = (owner: TestUser, subject: TestUser, counter: number) =>
      call("/api/chat/pins", { subject: subject.id, data: "AAAA", head: { counter, data: "AAAA" } }, owner);
    expect((await pinFor(alice, bob, 1)).status).toBe(200);
    expect((await pinFor(bob, alice, 1)).status).toBe(200);
    const su = await admin();
    // an MLS commit naming her device (PocketBase refuses to delete an account a commit names)
    await su.collection("mls_commits").create({ channel: bobs.id, epoch: 1, sender: alice.id, data: "AAAA" });
    // her message archive (ADR 0048; written by its route only, here by the superuser): it goes, the message stays
    await su.collection("message_archive").create({ owner: alice.id, channel: bobs.id, message: kept.id, data: "AAAA" });

    const deleted = await call("/api/chat/account/delete", { password: alice.password }, alice);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json).toEqual({ deleted: true, channelsHandedOver: 1, channelsDeleted: 1 });

    const count = async (collection: string, filter: string) => (await su.collection(collection).getList(1, 1, { filter })).totalItems;
    for (const [collection, field] of [
      ["users", "id"],
      ["profiles", "id"],
      ["channel_members", "user"],
      ["whatsapp_contacts", "user"],
      ["keyring_entries", "user"],
      ["key_pins", "owner"],
      ["key_pin_heads", "owner"],
      ["read_positions", "user"],
      ["mls_key_packages", "user"],
      ["push_subscriptions", "owner"],
      ["notify_rules", "owner"],
      ["message_archive", "owner"],
    ])
      expect(await count(collection, `${field} = "${alice.id}"`), collection).toBe(0);
    // what stays: her message (and nothing else of her), Bob's pin for her, the commit, and her public keys under her id
    expect((await su.collection("messages").getOne(kept.id)).sender).toBe(alice.id);
    expect(await count("key_pins", `subject = "${alice.id}"`)).toBe(1);
    expect(await count("mls_commits", `sender = "${alice.id}"`)).toBe(1);
    const tomb = await su.collection("deleted_accounts").getOne(alice.id);
    expect(tomb).toMatchObject({ ecdh_public_key: expect.any(String), rsa_public_key: expect.any(String) });
    // a signed-in account neither lists nor reads deleted accounts: the pages get their keys through PocketBase's routes
    await expect(bob.pb.collection("deleted_accounts").getList(1, 50)).rejects.toMatchObject({ status: 403 });
    await expect(bob.pb.collection("deleted_accounts").getOne(alice.id)).rejects.toMatchObject({ status: 403 });
    const named = await bob.pb.send<{ profiles: { id: string; deleted?: boolean; ecdh_public_key: string }[] }>(
      `/api/chat/profiles?ids=${alice.id}`,
      {},
    );
    expect(named.profiles.find((item) => item.id === alice.id)).toMatchObject({ deleted: true, ecdh_public_key: tomb.ecdh_public_key });
    expect(Object.keys(tomb).sort()).toEqual(["collectionId", "collectionName", "created", "ecdh_public_key", "id", "rsa_public_key"]);
    // the channel she created with Bob in it is Bob's now; the one with nobody else is gone
    expect((await su.collection("channels").getOne(shared.id)).created_by).toBe(bob.id);
    expect(await count("channels", `id = "${alone.id}"`)).toBe(0);
    // Bob still reads her message
    expect((await bob.pb.collection("messages").getOne(kept.id)).sender).toBe(alice.id);

    expect(await sessionStatus(alice.token)).toBe(401);
    expect(await signInStatus(alice.email, alice.password)).toBe(400);
    // the same email signs up again (a new account); her id stays taken
    const again = await signUpUser(pb.url, { email: alice.email });
    expect(again.id).not.toBe(alice.id);
    const reused = await postJson(pb.url, "/api/chat/signup", {
      id: alice.id,
      email: `other-${alice.id}@example.test`,
      password: randomSecret(),
      username: `reuse_${alice.id.slice(0, 8)}`,
      ecdh_public_key: "k".repeat(60),
      rsa_public_key: "k".repeat(60),
      encrypted_ecdh_private_key: fakeWrappedKey(),
      encrypted_rsa_private_key: fakeWrappedKey(),
      kdf_iterations: 600_000,
    });
    expect([reused.status, messageOf(reused)]).toEqual([400, "An account with this ID already exists."]);
  });
});
