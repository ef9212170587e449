// The sign-up answer for a taken address (issue 47, docs/decisions/0082-pending-email-at-sign-up.md):
// every sign-up creates an account whose address stays pending until the emailed link attaches it; a
// taken address gets a mail saying what happened instead of a link, and the answer is the same. A real
// PocketBase mailing through a real SMTP server on loopback.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCaptureServer, type CaptureServer } from "./smtp";
import { client, postJson, signupBody, startPocketBase, superuserClient, type RunningPocketBase } from "./pocketbase";

const TRIED = "Someone tried to sign up to ChatCrypt with your email address";
const CONFIRM = "Confirm your email address for ChatCrypt";

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

/** A raw sign-up: status, the headers that could tell the cases apart, the body, and how long it took. */
async function signUp(overrides: Record<string, string> = {}) {
  const body = signupBody(overrides);
  const started = performance.now();
  const res = await fetch(`${pb.url}/api/chat/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { token: string; record: Record<string, unknown> };
  const ms = performance.now() - started;
  const headers = Object.fromEntries(["content-type", "cache-control", "set-cookie", "vary"].map((name) => [name, res.headers.get(name)]));
  return { body, status: res.status, headers, json, ms };
}

const mailsTo = (address: string, subject: string) => smtp.mailsTo(address).filter((mail) => mail.subject === subject);
const tokenIn = (html: string) => /verify-email#token=([^"&\s]+)/.exec(html)?.[1] ?? "";
const confirm = (token: string) => postJson(pb.url, "/api/chat/email-link/confirm", { token });
const record = async (id: string) => (await superuserClient(pb.url, pb.superuser)).collection("users").getOne(id);

/** Signs up and opens the link mailed to the address: an account that has its address. */
async function owner() {
  const signed = await signUp();
  await expect.poll(() => mailsTo(signed.body.email, CONFIRM).length, { timeout: 10_000 }).toBe(1);
  const res = await confirm(tokenIn(mailsTo(signed.body.email, CONFIRM)[0].html));
  expect(res.status, res.text).toBe(200);
  return signed;
}

/** The parts of an answer that are not the account's own (its id, address, wrapped keys, times and token). */
function shape(answer: Awaited<ReturnType<typeof signUp>>) {
  const { id, pending_email, created, updated, encrypted_ecdh_private_key, encrypted_rsa_private_key, ...rest } = answer.json.record;
  expect([id, pending_email, created, updated].every((value) => typeof value === "string" && value !== "")).toBe(true);
  expect([encrypted_ecdh_private_key, encrypted_rsa_private_key]).toEqual([
    answer.body.encrypted_ecdh_private_key,
    answer.body.encrypted_rsa_private_key,
  ]);
  return { status: answer.status, headers: answer.headers, keys: Object.keys(answer.json).sort(), record: rest };
}

describe("sign-up with an address another account has", () => {
  it("is answered as for a new address: same status, headers and body, time of the same order", async () => {
    const taken = await owner();
    const answers = { taken: [] as Awaited<ReturnType<typeof signUp>>[], fresh: [] as Awaited<ReturnType<typeof signUp>>[] };
    for (let round = 0; round < 3; round++) {
      answers.taken.push(await signUp({ email: taken.body.email.toUpperCase() }));
      answers.fresh.push(await signUp());
    }
    for (const [a, b] of answers.taken.map((answer, i) => [answer, answers.fresh[i]])) {
      expect(a.status, JSON.stringify(a.json)).toBe(200);
      expect(shape(a)).toEqual(shape(b));
      expect(a.json.record).toMatchObject({ email: "", verified: false, pending_email: taken.body.email });
    }
    const median = (list: { ms: number }[]) => list.map((answer) => answer.ms).sort((x, y) => x - y)[1];
    console.log(
      `sign-up answer, median of 3: taken address ${median(answers.taken).toFixed(0)} ms, new address ${median(answers.fresh).toFixed(0)} ms`,
    );
    const [slow, fast] = [median(answers.taken), median(answers.fresh)].sort((x, y) => y - x);
    expect(slow / fast).toBeLessThan(5);
  });

  it("tells the address's owner by mail, sends no link, and the new account gets no address", async () => {
    const taken = await owner();
    const again = await signUp({ email: taken.body.email });
    expect(again.status).toBe(200);

    await expect.poll(() => mailsTo(taken.body.email, TRIED).length, { timeout: 10_000 }).toBe(1);
    const mail = mailsTo(taken.body.email, TRIED)[0];
    expect(mail.text).toContain(`Someone tried to sign up to ChatCrypt with your email address (${taken.body.email}).`);
    expect(mail.text).toContain('If you forgot your password, choose "Forgot your password?" on the sign-in screen to reset it.');
    expect(mail.text).toContain("https://chat.example.test/");
    expect(mailsTo(taken.body.email, CONFIRM)).toHaveLength(1); // only the owner's own, from before
    expect(mail.html).not.toContain("token=");

    // asking for the link again gets the same mail, not a link
    const asked = await postJson(pb.url, "/api/chat/email-link", {}, again.json.token);
    expect(asked.status, asked.text).toBe(200);
    expect(asked.json).toEqual({ sent: true });
    await expect.poll(() => mailsTo(taken.body.email, TRIED).length, { timeout: 10_000 }).toBe(2);
    expect(mailsTo(taken.body.email, CONFIRM)).toHaveLength(1);

    expect(await record(again.body.id)).toMatchObject({ email: "", verified: false });
    expect(await record(taken.body.id)).toMatchObject({ email: taken.body.email, verified: true, pending_email: "" });
  });

  it("signs in with the address and either password: each gets its own account", async () => {
    const taken = await owner();
    const again = await signUp({ email: taken.body.email });
    const signIn = (password: string) => client(pb.url).collection("users").authWithPassword(taken.body.email, password);
    expect((await signIn(taken.body.password)).record.id).toBe(taken.body.id);
    expect((await signIn(again.body.password)).record.id).toBe(again.body.id);
    await expect(signIn("x".repeat(43))).rejects.toMatchObject({ status: 400 });
  });

  it("a password reset goes only to the address's owner, and is answered the same", async () => {
    const fresh = await signUp();
    const before = smtp.mailsTo(fresh.body.email).length;
    const pending = await client(pb.url).collection("users").requestPasswordReset(fresh.body.email);
    expect(pending).toBe(true);
    const taken = await owner();
    expect(await client(pb.url).collection("users").requestPasswordReset(taken.body.email)).toBe(true);
    await expect
      .poll(() => smtp.mailsTo(taken.body.email).filter((mail) => /reset/i.test(mail.subject)).length, { timeout: 10_000 })
      .toBe(1);
    expect(smtp.mailsTo(fresh.body.email)).toHaveLength(before);
  });
});

describe("the link mailed to a new address", () => {
  it("attaches the address; the account keeps its session and signs in by it", async () => {
    const fresh = await signUp();
    expect(fresh.json.record).toMatchObject({ email: "", pending_email: fresh.body.email, verified: false });
    // before the link: signs in by its pending address
    const early = await client(pb.url).collection("users").authWithPassword(fresh.body.email, fresh.body.password);
    expect(early.record.id).toBe(fresh.body.id);

    await expect.poll(() => mailsTo(fresh.body.email, CONFIRM).length, { timeout: 10_000 }).toBe(1);
    const mail = mailsTo(fresh.body.email, CONFIRM)[0];
    expect(mail.html).toContain("https://chat.example.test/verify-email#token=");
    const token = tokenIn(mail.html);
    const res = await confirm(token);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ email: fresh.body.email, verified: true });
    expect(await record(fresh.body.id)).toMatchObject({ email: fresh.body.email, verified: true, pending_email: "" });

    const own = client(pb.url);
    own.authStore.save(fresh.json.token, null);
    expect((await own.collection("users").getOne(fresh.body.id)).email).toBe(fresh.body.email);
    const later = await client(pb.url).collection("users").authWithPassword(fresh.body.email.toUpperCase(), fresh.body.password);
    expect(later.record.id).toBe(fresh.body.id);

    // opened again (a second click on the mail's button): said as done, nothing changes
    const before = await record(fresh.body.id);
    const reused = await confirm(token);
    expect(reused.status, reused.text).toBe(200);
    expect(reused.json).toEqual({ email: fresh.body.email, verified: true });
    expect(await record(fresh.body.id)).toMatchObject({ email: fresh.body.email, verified: true, updated: before.updated });
    // its session still holds: the account was not saved again
    expect((await own.collection("users").getOne(fresh.body.id)).id).toBe(fresh.body.id);
  });

  it("cannot attach an address another account has by then", async () => {
    const email = signupBody().email;
    const first = await signUp({ email });
    const second = await signUp({ email });
    await expect.poll(() => mailsTo(email, CONFIRM).length, { timeout: 10_000 }).toBe(2);
    const tokens = mailsTo(email, CONFIRM).map((mail) => tokenIn(mail.html));
    const ids = tokens.map((token) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).id as string);
    const secondToken = tokens[ids.indexOf(second.body.id)];
    expect((await confirm(tokens[ids.indexOf(first.body.id)])).status).toBe(200);

    const late = await confirm(secondToken);
    expect(late.status, late.text).toBe(409);
    expect(late.json).toMatchObject({ message: "Another account uses this email address now, so it cannot be added to yours." });
    expect(await record(second.body.id)).toMatchObject({ email: "", verified: false });
  });

  it("refuses bad tokens with a 400 and never a 5xx", async () => {
    for (const token of ["", "x", "a.b.c", 42, null, "x".repeat(5000)]) {
      const res = await confirm(token as string);
      expect(res.status, String(token)).toBe(400);
    }
    const signedOut = await postJson(pb.url, "/api/chat/email-link", {});
    expect(signedOut.status).toBe(401);
  });
});
