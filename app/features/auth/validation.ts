import { z } from "zod";

// Shared by the auth form (what the person types) and the auth routes (what the browser sends after
// deriving keys). The raw password is validated only in the browser: it never leaves it.

export const MIN_PASSWORD_LENGTH = 8;
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;

export const signUpFormSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, "Username is required.")
    .regex(USERNAME_PATTERN, "Username must be 3-32 characters: letters, digits, dot, dash or underscore."),
  email: z.string().trim().min(1, "Email is required.").email("Please enter a valid email address."),
  password: z
    .string()
    .min(1, "Password is required.")
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`),
});

export const signInFormSchema = z.object({
  email: z.string().trim().min(1, "Email is required.").email("Please enter a valid email address."),
  password: z.string().min(1, "Password is required."),
});

const secret = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Invalid login secret.");
const publicKey = z.string().min(40).max(1000);
const wrapped = z.string().min(20).max(8000);

export const signUpRequestSchema = z.object({
  id: z.string().regex(/^[a-z0-9]{15}$/, "Invalid account id."),
  email: z.string().trim().email("Please enter a valid email address.").max(254),
  loginSecret: secret,
  username: z.string().trim().regex(USERNAME_PATTERN, "Username must be 3-32 characters: letters, digits, dot, dash or underscore."),
  ecdhPublicKey: publicKey,
  rsaPublicKey: publicKey,
  encryptedEcdhPrivateKey: wrapped,
  encryptedRsaPrivateKey: wrapped,
  kdfIterations: z.number().int().min(100_000).max(10_000_000),
});

export const signInRequestSchema = z.object({
  email: z.string().trim().email("Please enter a valid email address.").max(254),
  loginSecret: secret,
});
