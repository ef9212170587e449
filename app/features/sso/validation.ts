import { z } from "zod";
import { kdfIterations, loginSecret, signUpRequestSchema, wrapped } from "~/features/auth/validation";

// What a first single sign-on sends: sign-up's keys and username, and the ticket instead of an email
// and login secret (the provider vouched for the email; nobody has a password).
const ticket = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "This sign-in has expired. Start again.");
// `passphraseLater`: a passkey sets up encryption, and an encryption passphrase may follow (ssoPassphraseSchema).
export const ssoSignUpSchema = signUpRequestSchema
  .omit({ email: true, loginSecret: true })
  .extend({ ticket, passphraseLater: z.boolean().optional() });

/** The keys wrapped under the passphrase chosen after a passkey, with the sign-up's ticket (once). */
export const ssoPassphraseSchema = z
  .object({ ticket, encryptedEcdhPrivateKey: wrapped, encryptedRsaPrivateKey: wrapped, kdfIterations })
  .strict();

/** Linking a password account: the ticket and the login secret of its password (never the password). */
export const ssoLinkSchema = z.object({ ticket, loginSecret }).strict();

/** The console's changes (PocketBase's hook checks each value; these are the shapes). */
export const ssoSettingsSchema = z
  .object({
    issuer: z.string().max(500, "The issuer URL can be at most 500 characters."),
    client_id: z.string().max(500, "The client ID can be at most 500 characters."),
    client_secret: z.string().max(1000, "The client secret can be at most 1000 characters."),
    name: z.string().max(60, "The provider name can be at most 60 characters."),
    username_claim: z.string().max(100, "The username claim can be at most 100 characters."),
    allowed_domains: z.string().max(2000, "The allowed email domains can be at most 2000 characters."),
    required: z.boolean(),
  })
  .partial()
  .strict();
