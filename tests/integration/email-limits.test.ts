// POST /api/chat/notify-email against a real PocketBase sending through a real SMTP server on
// loopback (email-stack.ts): only verified addresses get mail, at most 10 a minute per user and 10
// an hour per address.

import { describe, expect, it, vi } from "vitest";
import { moveTo, notification, notificationsTo, notify, pb, smtp, useMailStack, userWith, verify } from "./email-stack";
import { postJson, statusOf, superuserClient } from "./pocketbase";

useMailStack();

describe("notify-email", () => {
  it("sends at most 10 a minute per user", async () => {
    const user = await userWith({ email_notifications_enabled: true });
    const other = await userWith({ email_notifications_enabled: true });

    for (let i = 0; i < 10; i++) {
      expect((await notify(user, notification())).json, `send ${i + 1}`).toEqual({ sent: true });
    }
    const limited = await notify(user, notification());
    expect(limited.status).toBe(200);
    expect(limited.json).toEqual({ sent: false, reason: "rate limited" });
    expect(smtp.mailsTo(user.email)).toHaveLength(10);

    // another user has a limit of their own
    expect((await notify(other, notification())).json).toEqual({ sent: true });
  });

  it("refuses an unverified address with 403 and sends nothing", async () => {
    const user = await userWith({ email_notifications_enabled: true, email_include_content: true }, { verified: false });

    const res = await notify(user, notification());
    expect(res.status, res.text).toBe(403);
    expect((res.json as { message: string }).message).toBe("Verify your email address before turning on email notifications.");
    expect(smtp.mailsTo(user.email)).toHaveLength(0);

    // once the address is verified, the same request is delivered
    await verify(pb, user);
    expect((await notify(user, notification())).json).toEqual({ sent: true });
    expect(smtp.mailsTo(user.email)).toHaveLength(1);
  });

  it("a user cannot mark their own address verified", async () => {
    const user = await userWith({ email_notifications_enabled: true }, { verified: false });
    await statusOf(user.pb.collection("users").update(user.id, { verified: true }));
    const admin = await superuserClient(pb.url, pb.superuser);
    expect((await admin.collection("users").getOne(user.id)).verified).toBe(false);
    expect((await notify(user, notification())).status).toBe(403);
  });

  it("sends at most 10 an hour to one address, across accounts, answering 429", async () => {
    const address = `shared-${Date.now()}@example.test`;
    const first = await userWith({ email_notifications_enabled: true });
    await moveTo(first, address);
    for (let i = 0; i < 6; i++) {
      expect((await notify(first, notification())).json, `first account, send ${i + 1}`).toEqual({ sent: true });
    }

    // the address moves to another account, which inherits what was already sent to it
    await moveTo(first, `moved-${Date.now()}@example.test`);
    const second = await userWith({ email_notifications_enabled: true });
    await moveTo(second, address);
    for (let i = 0; i < 4; i++) {
      expect((await notify(second, notification())).json, `second account, send ${i + 1}`).toEqual({ sent: true });
    }
    const limited = await notify(second, notification());
    expect(limited.status, limited.text).toBe(429);
    expect((limited.json as { message: string }).message).toBe("Too many emails to this address in the last hour. Please try again later.");
    expect(notificationsTo(address)).toHaveLength(10);

    // the first account's own budget is untouched by the refusal, and other addresses are not limited
    expect((await notify(first, notification())).json).toEqual({ sent: true });
  });

  it("counts verification emails against the same limit of the address", async () => {
    const address = `verify-${Date.now()}@example.test`;
    const sender = await userWith({ email_notifications_enabled: true });
    await moveTo(sender, address);
    for (let i = 0; i < 10; i++) {
      expect((await notify(sender, notification())).json, `send ${i + 1}`).toEqual({ sent: true });
    }
    await moveTo(sender, `elsewhere-${Date.now()}@example.test`);

    const newcomer = await userWith({}, { verified: false });
    const admin = await superuserClient(pb.url, pb.superuser);
    await admin.collection("users").update(newcomer.id, { email: address, verified: false });
    const res = await postJson(pb.url, "/api/collections/users/request-verification", { email: address });
    expect(res.status, res.text).toBe(429);
    expect((res.json as { message: string }).message).toBe("Too many emails to this address in the last hour. Please try again later.");
    expect(notificationsTo(address)).toHaveLength(10);
  });

  it("sends PocketBase's login alerts only to a verified address", async () => {
    const user = await userWith({}, { verified: false });
    const signInAs = async (userAgent: string) => {
      const res = await fetch(`${pb.url}/api/collections/users/auth-with-password`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "User-Agent": userAgent },
        body: JSON.stringify({ identity: user.email, password: user.password }),
      });
      expect(res.status).toBe(200);
    };
    const alerts = () => smtp.mailsTo(user.email).filter((mail) => mail.subject === "Login from a new location");

    // every sign-in from a new user agent is a "new location", with that text in the alert
    await signInAs("first device");
    await signInAs("Win a prize at spam.example");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(alerts()).toHaveLength(0);

    await verify(pb, user);
    await signInAs("another device");
    await vi.waitFor(() => expect(alerts()).toHaveLength(1), { timeout: 5_000 });
  });

  it("sends at most 10 login alerts an hour to an address; the sign-ins go on", async () => {
    const user = await userWith({}, { verified: false });
    await verify(pb, user);
    for (let i = 0; i < 14; i++) {
      const res = await fetch(`${pb.url}/api/collections/users/auth-with-password`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "User-Agent": `device ${i}` },
        body: JSON.stringify({ identity: user.email, password: user.password }),
      });
      expect(res.status).toBe(200);
    }
    const mails = () => smtp.mailsTo(user.email).filter((mail) => mail.subject === "Login from a new location");
    await vi.waitFor(() => expect(mails().length).toBeGreaterThanOrEqual(10), { timeout: 10_000 });
    // the sign-ins' alerts are sent as each sign-in ends: once 10 arrived, a further one never does
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(mails()).toHaveLength(10);
  });
});
