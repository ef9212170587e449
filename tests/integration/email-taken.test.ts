// An email change to an address that already has an account (issue 47): the answer is the same as for
// a free address, so it tells no one which addresses have an account; the address's owner is told by
// mail what happened, and no link goes out. A real PocketBase mailing through a real SMTP server.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCaptureServer, type CaptureServer } from "./smtp";
import { postJson, signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";
import { verify } from "./email-stack";

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

const askChange = (user: TestUser, newEmail: string) =>
  postJson(pb.url, "/api/chat/account/email-change", { new_email: newEmail, password: user.password }, user.token);

describe("an email change to an address that has an account", () => {
  it("is answered as for a free address; the address's owner is told what happened, and no link is sent", async () => {
    const [alice, bob] = [await signUpUser(pb.url), await signUpUser(pb.url)];
    await verify(pb, bob); // Bob's address is his (a pending one is no one's yet)
    const freeEmail = `free-${alice.id}@example.test`;

    const taken = await askChange(alice, bob.email.toUpperCase());
    const free = await askChange(alice, freeEmail);
    expect([taken.status, free.status]).toEqual([200, 200]);
    expect(taken.json).toEqual({ sent: true, newEmail: bob.email });
    expect(free.json).toEqual({ sent: true, newEmail: freeEmail });

    const toldBob = () => smtp.mailsTo(bob.email).filter((m) => m.subject === "Someone tried to use your email address on ChatCrypt");
    await expect.poll(() => toldBob().length, { timeout: 10_000 }).toBe(1);
    expect(toldBob()[0].text).toContain(
      `Someone tried to change the email address of another ChatCrypt account to yours (${bob.email}). Nothing was changed: your address stays with your account.`,
    );
    expect(toldBob()[0].text).toContain("If it was you, sign in to the account this address already belongs to.");
    // no link to take the address over
    const sinceSignUp = smtp.mailsTo(bob.email).filter((m) => m.subject !== "Confirm your email address for ChatCrypt");
    expect(sinceSignUp.some((m) => /token=/.test(m.html))).toBe(false);
    // the free address gets its link
    await expect.poll(() => smtp.mailsTo(freeEmail).length, { timeout: 10_000 }).toBe(1);
  });
});
