// POST /api/chat/notify-email against a real PocketBase sending through a real SMTP server on
// loopback, configured from the environment (SMTP_HOST, SMTP_PORT, ...).

import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startCaptureServer, type CaptureServer } from "./smtp";
import {
  client,
  post,
  postJson,
  signUpUser,
  startPocketBase,
  statusOf,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";

const ROUTE = "/api/chat/notify-email";
const SMTP_CREDENTIALS = { username: "chatcrypt-mailer", password: "smtp-secret-123" };

let smtp: CaptureServer;
let pb: RunningPocketBase;

beforeAll(async () => {
  smtp = await startCaptureServer({ credentials: SMTP_CREDENTIALS });
  pb = await startPocketBase({
    env: {
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      SMTP_USERNAME: SMTP_CREDENTIALS.username,
      SMTP_PASSWORD: SMTP_CREDENTIALS.password,
      SMTP_TLS: "false",
      APP_URL: "https://chat.example.test/",
    },
  });
});

afterAll(async () => {
  await pb?.stop();
  await smtp?.stop();
});

/** Marks the user's address as verified, as confirming PocketBase's verification email does. */
async function verify(server: RunningPocketBase, user: TestUser, fields: Record<string, unknown> = {}) {
  const admin = await superuserClient(server.url, server.superuser);
  await admin.collection("users").update(user.id, { verified: true, ...fields });
}

/** Gives the user another (verified) address, and signs them in again: the change ends their sessions. */
async function moveTo(user: TestUser, email: string) {
  await verify(pb, user, { email });
  const auth = await client(pb.url).collection("users").authWithPassword(email, user.password);
  user.token = auth.token;
  user.pb.authStore.save(auth.token, auth.record);
}

async function userWith(
  settings: { email_notifications_enabled?: boolean; email_include_content?: boolean },
  { verified = true }: { verified?: boolean } = {},
) {
  const user = await signUpUser(pb.url);
  if (Object.keys(settings).length > 0) {
    await user.pb.collection("users").update(user.id, settings);
  }
  if (verified) await verify(pb, user);
  return user;
}

/** Notifications delivered to the address (PocketBase's login alerts left out). */
const notificationsTo = (address: string) => smtp.mailsTo(address).filter((mail) => /^New (mention|message) in /.test(mail.subject));

function notify(user: TestUser | undefined, body: unknown) {
  return postJson(pb.url, ROUTE, body, user?.token);
}

const SECRET_TEXT = "The launch code is 7391 and the meeting moved to Friday";

function notification(overrides: Record<string, unknown> = {}) {
  return {
    to: "victim@example.test",
    messageContent: `@someone ${SECRET_TEXT}`,
    senderUsername: "alice_w",
    channelName: "general",
    mention: true,
    ...overrides,
  };
}

describe("SMTP settings from the environment", () => {
  it("are saved in the app settings, with the default sender", async () => {
    const admin = await superuserClient(pb.url, pb.superuser);
    const settings = (await admin.settings.getAll()) as {
      smtp: { enabled: boolean; host: string; port: number; username: string; tls: boolean };
      meta: { senderAddress: string; senderName: string };
    };
    expect(settings.smtp).toMatchObject({
      enabled: true,
      host: smtp.host,
      port: smtp.port,
      username: SMTP_CREDENTIALS.username,
      tls: false,
    });
    expect(settings.meta).toMatchObject({ senderAddress: "noreply@chatcrypt.local", senderName: "ChatCrypt" });
  });
});

describe("APP_URL", () => {
  it("becomes PocketBase's application URL, the start of verification links", async () => {
    const admin = await superuserClient(pb.url, pb.superuser);
    const settings = (await admin.settings.getAll()) as { meta: { appURL: string } };
    expect(settings.meta.appURL).toBe("https://chat.example.test");
    const users = await admin.collections.getOne("users");
    expect((users as unknown as { verificationTemplate: { body: string } }).verificationTemplate.body).toContain(
      'href="{APP_URL}/verify-email#token={TOKEN}"',
    );
  });
});

describe("without usable SMTP settings", () => {
  let other: RunningPocketBase | undefined;

  afterAll(async () => {
    await other?.stop();
  });

  it("starts, keeps SMTP off, and answers that email is not configured", async () => {
    other = await startPocketBase({ env: { SMTP_HOST: smtp.host, SMTP_PORT: "not-a-port" } });
    const admin = await superuserClient(other.url, other.superuser);
    const settings = (await admin.settings.getAll()) as { smtp: { enabled: boolean } };
    expect(settings.smtp.enabled).toBe(false);

    const user = await signUpUser(other.url);
    await user.pb.collection("users").update(user.id, { email_notifications_enabled: true });
    await verify(other, user);
    const res = await postJson(other.url, ROUTE, notification(), user.token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ sent: false, reason: "email is not configured" });
    expect(smtp.mailsTo(user.email)).toHaveLength(0);
  });
});

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
