// The stack of the notification email tests (email-*.test.ts): a real PocketBase sending through a
// real SMTP server on loopback, configured from the environment (SMTP_HOST, SMTP_PORT, ...), and
// helpers to make users and ask for notifications.

import { afterAll, beforeAll } from "vitest";
import { startCaptureServer, type CaptureServer } from "./smtp";
import { CONFIRM_SUBJECT, signUpLinkToken } from "./signup-link";
import { client, postJson, signUpUser, startPocketBase, superuserClient, type RunningPocketBase, type TestUser } from "./pocketbase";

export const ROUTE = "/api/chat/notify-email";
export const SMTP_CREDENTIALS = { username: "chatcrypt-mailer", password: "smtp-secret-123" };

export let smtp: CaptureServer;
export let pb: RunningPocketBase;

/** Starts the SMTP server and the PocketBase before the calling test file's tests, and stops them after them. */
export function useMailStack(): void {
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
}

/** Sign-up links of users made by userWith, by user id, not yet opened. */
const signUpLinks = new Map<string, string>();

/**
 * Attaches the user's address and marks it verified, as opening the link mailed at sign-up does (the
 * sessions stay); other fields are set as a superuser. An account not made by userWith gets its address
 * set as a superuser, which renews its token key: it is signed in again.
 */
export async function verify(server: RunningPocketBase, user: TestUser, fields: Record<string, unknown> = {}) {
  const admin = await superuserClient(server.url, server.superuser);
  const token = signUpLinks.get(user.id);
  signUpLinks.delete(user.id);
  if (token) {
    const opened = await postJson(server.url, "/api/chat/email-link/confirm", { token });
    if (opened.status !== 200) throw new Error(`the sign-up link was refused: ${opened.text}`);
    if (Object.keys(fields).length > 0) await admin.collection("users").update(user.id, fields);
    return;
  }
  const before = await admin.collection("users").getOne<{ email: string }>(user.id);
  const after = await admin
    .collection("users")
    .update<{ email: string }>(user.id, { email: user.email, pending_email: "", verified: true, ...fields });
  if (before.email === after.email) return;
  const auth = await client(server.url).collection("users").authWithPassword(after.email, user.password);
  user.token = auth.token;
  user.pb.authStore.save(auth.token, auth.record);
}

/** Gives the user another (verified) address, and signs them in again: the change ends their sessions. */
export async function moveTo(user: TestUser, email: string) {
  await verify(pb, user, { email });
  const auth = await client(pb.url).collection("users").authWithPassword(email, user.password);
  user.token = auth.token;
  user.pb.authStore.save(auth.token, auth.record);
}

/**
 * A new account with these settings, its address verified unless asked otherwise. The link mailed at
 * sign-up is kept for verify and taken out of the mailbox, so that tests count only what comes after.
 */
export async function userWith(
  settings: { email_notifications_enabled?: boolean; email_include_content?: boolean },
  { verified = true }: { verified?: boolean } = {},
) {
  const user = await signUpUser(pb.url);
  signUpLinks.set(user.id, await signUpLinkToken(smtp, user.email));
  const signUpMails = new Set(smtp.mailsTo(user.email).filter((mail) => mail.subject === CONFIRM_SUBJECT));
  smtp.mails.splice(0, smtp.mails.length, ...smtp.mails.filter((mail) => !signUpMails.has(mail)));
  if (Object.keys(settings).length > 0) {
    await user.pb.collection("users").update(user.id, settings);
  }
  if (verified) await verify(pb, user);
  return user;
}

/** Notifications delivered to the address (PocketBase's login alerts left out). */
export const notificationsTo = (address: string) => smtp.mailsTo(address).filter((mail) => /^New (mention|message) in /.test(mail.subject));

export function notify(user: TestUser | undefined, body: unknown) {
  return postJson(pb.url, ROUTE, body, user?.token);
}

export const SECRET_TEXT = "The launch code is 7391 and the meeting moved to Friday";

export function notification(overrides: Record<string, unknown> = {}) {
  return {
    to: "victim@example.test",
    messageContent: `@someone ${SECRET_TEXT}`,
    senderUsername: "alice_w",
    channelName: "general",
    mention: true,
    ...overrides,
  };
}
