import { z } from "zod";
import { emailAddress } from "~/lib/schemas";

// What the recovery routes accept: only values the browser derived or wrapped, never a key or password.

const wrapped = z
  .string()
  .max(8000)
  .regex(/^v\d+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, "Keys must be wrapped in the browser.");
const token = z.string().min(1, "The reset link is incomplete.").max(4096);
const publicKey = z.string().min(40).max(1000);

export const recoveryWrappingSchema = z.object({ wrappedEcdh: wrapped, wrappedRsa: wrapped }).strict();

export const forgotPasswordSchema = z.object({ email: emailAddress }).strict();

export const resetRequestSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("open"), token }).strict(),
  z
    .object({
      intent: z.literal("confirm"),
      token,
      loginSecret: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Invalid login secret."),
      encryptedEcdhPrivateKey: wrapped,
      encryptedRsaPrivateKey: wrapped,
      kdfIterations: z.number().int().min(100_000).max(10_000_000),
      newPublicKeys: z.object({ ecdhPublicKey: publicKey, rsaPublicKey: publicKey }).strict().optional(),
    })
    .strict(),
]);
