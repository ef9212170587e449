// The SMTP settings and the application URL PocketBase takes from the environment, against a real
// SMTP server on loopback (email-stack.ts).

import { afterAll, describe, expect, it } from "vitest";
import { ROUTE, SMTP_CREDENTIALS, notification, pb, smtp, useMailStack, verify } from "./email-stack";
import { postJson, signUpUser, startPocketBase, superuserClient, type RunningPocketBase } from "./pocketbase";

useMailStack();

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
