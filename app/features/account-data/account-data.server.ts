import type { AppLoadContext } from "@remix-run/node";
import type PocketBase from "pocketbase";
import type { z } from "zod";
import { fail } from "~/server/http.server";
import { failOnOutage } from "~/server/outage.server";
import { pbErrorMessage, pbStatus, pocketbase } from "~/server/pocketbase.server";
import type { DeletedAccount, EmailChangeKeys, ServerExport } from "~/features/account-data/types";
import type {
  deleteAccountSchema,
  emailChangeConfirmSchema,
  emailChangeCheckSchema,
  emailChangeKeysSchema,
  emailChangeRequestSchema,
} from "~/features/account-data/validation";

// The web side of the account's own data: each call goes to its PocketBase route
// (pb_hooks/account_data.pb.js) as the caller, and PocketBase's 4xx answers reach the page as they are.

async function send<T>(pb: PocketBase, path: string, body: unknown, failure: string): Promise<T> {
  try {
    return await pb.send<T>(path, body === undefined ? { method: "GET" } : { method: "POST", body });
  } catch (error) {
    failOnOutage(error);
    const status = pbStatus(error);
    if (status === 401 || status === 403) fail(401, "Not authenticated");
    fail(status >= 400 && status < 500 ? status : 502, (status >= 400 && status < 500 && pbErrorMessage(error)) || failure);
  }
}

/** Mails a confirmation link to the new address, once the login secret checks out. */
export const requestEmailChange = (pb: PocketBase, body: z.infer<typeof emailChangeRequestSchema>) =>
  send<{ sent: boolean; newEmail: string }>(
    pb,
    "/api/chat/account/email-change",
    { new_email: body.newEmail, password: body.loginSecret },
    "The email could not be sent. Please try again.",
  );

/** Whether an email-change link still works (its page asks this before the password): the addresses it names, or a 400. */
export const checkEmailChangeLink = (context: AppLoadContext, body: z.infer<typeof emailChangeCheckSchema>) =>
  send<{ email: string; new_email: string }>(
    pocketbase(undefined, context),
    "/api/chat/account/email-change/check",
    { token: body.token },
    "The link could not be checked. Please try again.",
  );

/** The account's wrapped keys, for the page of an email-change link (no session needed: the link's token and the login secret). */
export async function emailChangeKeys(context: AppLoadContext, body: z.infer<typeof emailChangeKeysSchema>): Promise<EmailChangeKeys> {
  const keys = await send<{
    id: string;
    email: string;
    new_email: string;
    encrypted_ecdh_private_key: string;
    encrypted_rsa_private_key: string;
    kdf_iterations: number;
  }>(
    pocketbase(undefined, context),
    "/api/chat/account/email-change/keys",
    { token: body.token, password: body.loginSecret },
    "Your email address could not be changed. Please try again.",
  );
  return {
    id: keys.id,
    email: keys.email,
    newEmail: keys.new_email,
    encryptedEcdhPrivateKey: keys.encrypted_ecdh_private_key,
    encryptedRsaPrivateKey: keys.encrypted_rsa_private_key,
    kdfIterations: keys.kdf_iterations,
  };
}

/** Sets the new address, login secret and wrapped keys together; every session of the account ends. */
export const confirmEmailChange = (context: AppLoadContext, body: z.infer<typeof emailChangeConfirmSchema>) =>
  send<{ id: string; email: string }>(
    pocketbase(undefined, context),
    "/api/chat/account/email-change/confirm",
    {
      token: body.token,
      password: body.loginSecret,
      new_password: body.newLoginSecret,
      encrypted_ecdh_private_key: body.encryptedEcdhPrivateKey,
      encrypted_rsa_private_key: body.encryptedRsaPrivateKey,
      kdf_iterations: body.kdfIterations,
    },
    "Your email address could not be changed. Please try again.",
  );

export const deleteAccount = (pb: PocketBase, body: z.infer<typeof deleteAccountSchema>) =>
  send<DeletedAccount & { deleted: boolean }>(
    pb,
    "/api/chat/account/delete",
    { password: body.loginSecret, ...(body.dryRun ? { dry_run: true } : {}) },
    "Your account could not be deleted. Please try again.",
  );

export const exportAccount = (pb: PocketBase) =>
  send<ServerExport>(pb, "/api/chat/account/export", undefined, "Your data could not be exported. Please try again.");
