// The link mailed at sign-up (docs/decisions/0082-pending-email-at-sign-up.md), as its owner opens it:
// for tests whose accounts need their address attached (reset mails, notifications).

import { expect } from "vitest";
import type { CaptureServer } from "./smtp";
import { postJson, signUpUser, type TestUser } from "./pocketbase";

export const CONFIRM_SUBJECT = "Confirm your email address for ChatCrypt";

/** The token of the newest sign-up link mailed to the address (waits for it). */
export async function signUpLinkToken(smtp: CaptureServer, address: string): Promise<string> {
  const links = () => smtp.mailsTo(address).filter((mail) => mail.subject === CONFIRM_SUBJECT);
  await expect.poll(() => links().length, { timeout: 10_000 }).toBeGreaterThan(0);
  return /verify-email#token=([^"&\s]+)/.exec(links().at(-1)!.html)?.[1] ?? "";
}

/** Opens the sign-up link of the user's address: the address becomes the account's (its sessions stay). */
export async function openSignUpLink(pbUrl: string, smtp: CaptureServer, user: TestUser): Promise<void> {
  const res = await postJson(pbUrl, "/api/chat/email-link/confirm", { token: await signUpLinkToken(smtp, user.email) });
  expect(res.status, res.text).toBe(200);
}

/** Signs up and opens the link mailed to the address. */
export async function signUpConfirmed(pbUrl: string, smtp: CaptureServer): Promise<TestUser> {
  const user = await signUpUser(pbUrl);
  await openSignUpLink(pbUrl, smtp, user);
  return user;
}
