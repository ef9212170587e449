import { z } from "zod";
import { emailAddress } from "~/lib/schemas";

// What the auth routes accept (what the browser sends after deriving keys). The form's own checks,
// on the raw password among others, are in form-checks.ts and run only in the browser.

import { USERNAME_PATTERN } from "~/features/auth/limits";

/** A login secret as the browser derives it (32 bytes, unpadded base64url). */
export const loginSecret = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Invalid login secret.");
const publicKey = z.string().min(40).max(1000);
/** A private key wrapped in the browser (ciphertext). */
export const wrapped = z.string().min(20).max(8000);
/** The PBKDF2 iterations of the password that wraps the private keys. */
export const kdfIterations = z.number().int().min(100_000).max(10_000_000);

export const signUpRequestSchema = z.object({
  id: z.string().regex(/^[a-z0-9]{15}$/, "Invalid account id."),
  email: emailAddress,
  loginSecret,
  username: z.string().trim().regex(USERNAME_PATTERN, "Username must be 3-32 characters: letters, digits, dot, dash or underscore."),
  ecdhPublicKey: publicKey,
  rsaPublicKey: publicKey,
  encryptedEcdhPrivateKey: wrapped,
  encryptedRsaPrivateKey: wrapped,
  kdfIterations,
});

export const signInRequestSchema = z.object({
  email: emailAddress,
  loginSecret,
});
