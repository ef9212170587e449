import { z } from "zod";
import { isBlank } from "~/lib/visible";

// What the passkey routes accept. A WebAuthn answer travels as @simplewebauthn/browser shapes it
// (base64url fields), with its client extension results left out by the page: the PRF output stays
// in the browser, and an answer that carries any extension result is refused.

const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "WebAuthn fields must be base64url.");
const noExtensions = z.object({}).strict();
const attachment = z.enum(["platform", "cross-platform"]).optional();
/** A WebAuthn credential as the browser library shapes it, with the authenticator's answer `response`. */
const credential = <T extends z.ZodRawShape>(response: T) =>
  z
    .object({
      id: b64url(1400),
      rawId: b64url(1400),
      type: z.literal("public-key"),
      response: z.object(response).strict(),
      clientExtensionResults: noExtensions,
      authenticatorAttachment: attachment,
    })
    .strict();
const wrapped = z
  .string()
  .max(8000)
  .regex(/^(v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{20,})?$/, "The wrapped private keys are malformed.");

export const noBodySchema = z.object({}).strict();

export const registrationSchema = z
  .object({
    response: credential({
      clientDataJSON: b64url(4096),
      attestationObject: b64url(16_384),
      transports: z.array(z.string().max(20)).max(8).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: b64url(2048).optional(),
      authenticatorData: b64url(8192).optional(),
    }),
    name: z
      .string()
      .trim()
      .min(1, "Name the passkey.")
      .max(64, "A passkey's name has at most 64 characters.")
      // eslint-disable-next-line no-control-regex -- control characters are what it refuses
      .regex(/^[^\u0000-\u001f\u007f]*$/, "A passkey's name cannot hold control characters.")
      .refine((name) => !isBlank(name), "Name the passkey."),
    wrappedEcdhPrivateKey: wrapped,
    wrappedRsaPrivateKey: wrapped,
  })
  .strict();

export const signInSchema = z
  .object({
    response: credential({
      clientDataJSON: b64url(4096),
      authenticatorData: b64url(4096),
      signature: b64url(1400),
      userHandle: b64url(100).optional(),
    }),
  })
  .strict();

export const PASSKEY_ID = /^[a-z0-9]{15}$/;
