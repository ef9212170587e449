// POST /api/chat/notify-email against a real PocketBase sending through a real SMTP server on
// loopback (email-stack.ts): what a notification says and to whom, its checks, and a failing mail
// server.

import { describe, expect, it, vi } from "vitest";
import { ROUTE, SECRET_TEXT, SMTP_CREDENTIALS, notification, notify, pb, smtp, useMailStack, userWith } from "./email-stack";
import { post, superuserClient } from "./pocketbase";
import { startCaptureServer } from "./smtp";

useMailStack();

describe("notify-email", () => {
  it("sends one email without the message text to the caller's own address, never to `to`", async () => {
    const user = await userWith({ email_notifications_enabled: true });

    const res = await notify(user, notification());
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ sent: true });

    const mails = smtp.mailsTo(user.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.rcptTo).toEqual([user.email]);
    expect(mail.to).toContain(user.email);
    expect(mail.subject).toBe("New mention in #general");
    expect(mail.from).toContain("noreply@chatcrypt.local");
    expect(mail.from).toContain("ChatCrypt");
    expect(mail.authUser).toBe(SMTP_CREDENTIALS.username);
    expect(mail.text).toContain("@alice_w mentioned you in #general.");
    expect(mail.html).toContain("@alice_w mentioned you in #general.");

    // neither the message text nor the requested recipient appears anywhere in the mail
    expect(mail.raw).not.toContain("launch code");
    expect(mail.text).not.toContain("launch code");
    expect(mail.html).not.toContain("launch code");
    expect(mail.raw).not.toContain("victim@example.test");
    expect(smtp.mailsTo("victim@example.test")).toHaveLength(0);
  });

  it("includes the message text when the user chose it, and says 'message' without a mention", async () => {
    const user = await userWith({ email_notifications_enabled: true, email_include_content: true });

    const res = await notify(user, notification({ mention: false, channelName: "design <team>" }));
    expect(res.json).toEqual({ sent: true });

    const [mail] = smtp.mailsTo(user.email);
    expect(mail.subject).toBe("New message in #design <team>");
    expect(mail.text).toContain("@alice_w sent a new message in #design <team>.");
    expect(mail.text).toContain(SECRET_TEXT);
    expect(mail.html).toContain(SECRET_TEXT);
    expect(mail.html).toContain("#design &lt;team&gt;");
    expect(mail.html).not.toContain("<team>");
  });

  it("names no conversation for a direct message, and never says channel (ADR 50)", async () => {
    const user = await userWith({ email_notifications_enabled: true });
    expect((await notify(user, notification({ mention: false, direct: true, channelName: "Secret group name" }))).json).toEqual({
      sent: true,
    });
    expect((await notify(user, notification({ mention: true, direct: true, channelName: "Secret group name" }))).json).toEqual({
      sent: true,
    });
    const [plain, mention] = smtp.mailsTo(user.email);
    expect(plain.subject).toBe("New direct message");
    expect(plain.text).toContain("@alice_w sent you a direct message.");
    expect(mention.subject).toBe("New mention in a direct message");
    expect(mention.text).toContain("@alice_w mentioned you in a direct message.");
    for (const mail of [plain, mention]) {
      expect(mail.raw).not.toContain("Secret group name");
      expect(`${mail.subject}\n${mail.text}`).not.toMatch(/channel|#/i);
    }
  });

  it("caps the included text at 2,000 characters", async () => {
    const user = await userWith({ email_notifications_enabled: true, email_include_content: true });
    // The cut-off tail is a run no generated address or id can hold ("zz" once matched a random address).
    const long = `${"a".repeat(1999)}b${"Z".repeat(3000)}`;

    const res = await notify(user, notification({ messageContent: long }));
    expect(res.json).toEqual({ sent: true });

    const [mail] = smtp.mailsTo(user.email);
    expect(mail.text).toContain(`${"a".repeat(1999)}b…`);
    expect(mail.text).not.toContain("bZ");
    expect(mail.raw).not.toContain("ZZZZ");
  });

  it("keeps line breaks out of the subject", async () => {
    const user = await userWith({ email_notifications_enabled: true });

    const res = await notify(user, notification({ channelName: "ops\r\nBcc: victim@example.test" }));
    expect(res.json).toEqual({ sent: true });

    const [mail] = smtp.mailsTo(user.email);
    expect(mail.subject).toBe("New mention in #ops Bcc: victim@example.test");
    expect(mail.rcptTo).toEqual([user.email]);
    expect(mail.headers.bcc).toBeUndefined();
  });

  it("sends one mail per message however many of the user's pages ask, at once or later", async () => {
    const user = await userWith({ email_notifications_enabled: true });
    const about = (messageId: string) => notification({ messageId });
    // (two devices and a tab, at the same moment)
    const answers = await Promise.all([1, 2, 3].map(() => notify(user, about("msg000000000001"))));
    expect(answers.map((a) => a.json).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      { sent: false, reason: "already sent" },
      { sent: false, reason: "already sent" },
      { sent: true },
    ]);
    expect((await notify(user, about("msg000000000001"))).json).toEqual({ sent: false, reason: "already sent" });
    expect(smtp.mailsTo(user.email)).toHaveLength(1);
    // another message is another mail; another person's page asking about the same message mails them
    expect((await notify(user, about("msg000000000002"))).json).toEqual({ sent: true });
    const other = await userWith({ email_notifications_enabled: true });
    expect((await notify(other, about("msg000000000001"))).json).toEqual({ sent: true });
    expect(smtp.mailsTo(user.email)).toHaveLength(2);
  });

  it("sends nothing while the user's email notifications are off", async () => {
    const user = await userWith({});
    const res = await notify(user, notification());
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ sent: false, reason: "email notifications are off" });

    await user.pb.collection("users").update(user.id, { email_notifications_enabled: true });
    await user.pb.collection("users").update(user.id, { email_notifications_enabled: false });
    expect((await notify(user, notification())).json).toEqual({ sent: false, reason: "email notifications are off" });
    expect(smtp.mailsTo(user.email)).toHaveLength(0);
  });

  it("needs a signed-in user", async () => {
    const before = smtp.mails.length;
    const res = await notify(undefined, notification());
    expect(res.status).toBe(401);
    expect((res.json as { message: string }).message).toBe("Not authenticated");
    expect(smtp.mails.length).toBe(before);
  });

  it("answers 400 with a message for malformed bodies", async () => {
    const user = await userWith({ email_notifications_enabled: true });
    const cases: { name: string; body: string; message: RegExp }[] = [
      { name: "not JSON", body: "hello", message: /JSON object/ },
      { name: "a JSON array", body: "[]", message: /JSON object/ },
      { name: "senderUsername missing", body: JSON.stringify(notification({ senderUsername: undefined })), message: /^senderUsername/ },
      { name: "senderUsername blank", body: JSON.stringify(notification({ senderUsername: "  " })), message: /^senderUsername/ },
      {
        name: "senderUsername 33 characters",
        body: JSON.stringify(notification({ senderUsername: "a".repeat(33) })),
        message: /at most 32/,
      },
      { name: "channelName missing", body: JSON.stringify(notification({ channelName: undefined })), message: /^channelName/ },
      { name: "channelName a number", body: JSON.stringify(notification({ channelName: 5 })), message: /^channelName/ },
      { name: "channelName 101 characters", body: JSON.stringify(notification({ channelName: "c".repeat(101) })), message: /at most 100/ },
      { name: "messageContent a list", body: JSON.stringify(notification({ messageContent: ["x"] })), message: /^messageContent/ },
      {
        name: "messageContent 20,001 characters",
        body: JSON.stringify(notification({ messageContent: "m".repeat(20001) })),
        message: /at most 20000/,
      },
      { name: "mention a string", body: JSON.stringify(notification({ mention: "yes" })), message: /^mention/ },
      { name: "messageId not an id", body: JSON.stringify(notification({ messageId: "../x" })), message: /^messageId/ },
      { name: "messageId a number", body: JSON.stringify(notification({ messageId: 7 })), message: /^messageId/ },
    ];
    for (const { name, body, message } of cases) {
      const contentType = name === "not JSON" ? "text/plain" : "application/json";
      const res = await post(pb.url, ROUTE, body, { token: user.token, contentType });
      expect(res.status, `${name}: ${res.text}`).toBe(400);
      expect((res.json as { message: string }).message, name).toMatch(message);
    }
    expect(smtp.mailsTo(user.email)).toHaveLength(0);

    // the limits themselves are accepted
    const largest = notification({ senderUsername: "a".repeat(32), channelName: "c".repeat(100), messageContent: "m".repeat(20000) });
    expect((await notify(user, largest)).json).toEqual({ sent: true });
  });

  // last: it breaks the SMTP settings of this PocketBase
  it("answers sent: false and logs when the mail server fails", async () => {
    const user = await userWith({ email_notifications_enabled: true });
    const admin = await superuserClient(pb.url, pb.superuser);
    const closed = await startCaptureServer();
    await closed.stop();
    await admin.settings.update({ smtp: { enabled: true, host: closed.host, port: closed.port } });

    const res = await notify(user, notification());
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ sent: false, reason: "mail failed" });

    // PocketBase writes its logs in batches
    await vi.waitFor(
      async () => {
        const logs = await admin.logs.getList(1, 20, { filter: `message = "Email notification failed"` });
        expect(logs.items.length).toBeGreaterThan(0);
      },
      { timeout: 15_000, interval: 500 },
    );
  });
});
