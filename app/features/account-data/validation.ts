import { z } from "zod";
import { emailAddress } from "~/lib/schemas";

// What the account-data routes accept. "loginSecret" is what the browser derives from the password
// (app/crypto/account.ts), never the password itself.

const secret = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Invalid login secret.");
const wrapped = z.string().min(20).max(8000);
const linkToken = z.string().min(20, "The link is incomplete. Open the link from the email again.").max(4096);

export const emailChangeRequestSchema = z.object({ newEmail: emailAddress, loginSecret: secret }).strict();

export const emailChangeCheckSchema = z.object({ token: linkToken }).strict();
export const emailChangeKeysSchema = z.object({ token: linkToken, loginSecret: secret }).strict();

export const emailChangeConfirmSchema = z
  .object({
    token: linkToken,
    loginSecret: secret,
    newLoginSecret: secret,
    encryptedEcdhPrivateKey: wrapped,
    encryptedRsaPrivateKey: wrapped,
    kdfIterations: z.number().int().min(100_000).max(10_000_000),
  })
  .strict();

export const deleteAccountSchema = z.object({ loginSecret: secret, dryRun: z.boolean().optional() }).strict();
