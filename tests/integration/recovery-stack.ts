// Test toolkit for account recovery (docs/decisions/0027-recovery-key-and-password-reset.md): a real
// PocketBase sending through a real SMTP server on loopback, the production web server in front of it
// at APP_URL (trusting one proxy, so a test can choose the browser's address), and the reset email's
// token as a browser gets it.

import type PocketBase from "pocketbase";
import { expect, vi } from "vitest";
import { freePort } from "../ports";
import { startCaptureServer, type CaptureServer } from "./smtp";
import { fakeWrappedKey, startPocketBase, superuserClient, type RunningPocketBase, type TestUser } from "./pocketbase";
import { WebClient, startWebServer, type WebServer } from "./web-session";

export const SENT = "If an account exists for that address, we sent a link to reset its password.";
export const INVALID_LINK = "This reset link is invalid, has expired or was already used. Ask for a new one from the sign-in screen.";

export interface RecoveryStack {
  smtp: CaptureServer;
  pb: RunningPocketBase;
  web: WebServer;
  admin: PocketBase;
  appUrl: string;
  /** A signed-out browser on the web app. */
  visitor: WebClient;
  stop(): Promise<void>;
}

export async function startRecoveryStack(): Promise<RecoveryStack> {
  const smtp = await startCaptureServer();
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const pb = await startPocketBase({ env: { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), SMTP_TLS: "false", APP_URL: appUrl } });
  const web = await startWebServer(pb.url, { port, env: { TRUST_PROXY: "1" } });
  const admin = await superuserClient(pb.url, pb.superuser);
  const visitor = new WebClient(web.url);
  await visitor.loadPage();
  const stop = async () => {
    await web.stop();
    await pb.stop();
    await smtp.stop();
  };
  return { smtp, pb, web, admin, appUrl, visitor, stop };
}

/** A private key wrapped the way app/crypto/keys.ts writes it (random bytes: the server never looks inside). */
export const wrapped = fakeWrappedKey;

/** The status and message of a failed call, or 200 and "" for a success. */
export async function outcome(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
    return { status: 200, message: "" };
  } catch (error) {
    const { status, message } = error as { status?: number; message: string };
    if (typeof status !== "number") throw error;
    return { status, message };
  }
}

/** Asks for a reset email through the web app and returns the token of the link it carries. */
export async function resetToken({ smtp, visitor, appUrl }: RecoveryStack, user: TestUser): Promise<string> {
  const before = smtp.mailsTo(user.email).length;
  expect(await visitor.api("/api/auth/forgot-password", { email: user.email })).toEqual({ message: SENT });
  const mail = await vi.waitFor(
    () => {
      const mails = smtp.mailsTo(user.email);
      expect(mails.length).toBe(before + 1);
      return mails[mails.length - 1];
    },
    { timeout: 10_000, interval: 100 },
  );
  expect(mail.subject).toBe("Reset your ChatCrypt password");
  const link = /href="([^"]+)"/.exec(mail.html)?.[1] ?? "";
  expect(link.startsWith(`${appUrl}/reset-password#token=`), link).toBe(true);
  return new URLSearchParams(new URL(link).hash.slice(1)).get("token") ?? "";
}
