import { z } from "zod";

// What the device-link routes accept (docs/decisions/0059-device-approval.md).

/** base64 SPKI of an ECDH P-256 public key. */
const publicKey = z.string().regex(/^[A-Za-z0-9+/]{120,200}={0,2}$/, "The device's key is malformed.");
const requestId = z.string().regex(/^[a-z0-9]{15}$/, "This request was not found.");

export const startSchema = z
  .object({
    identity: z.string().trim().max(254, "Enter your username or email.").optional(),
    deviceKey: publicKey,
  })
  .strict();

export const secretSchema = z
  .object({ id: requestId, secret: z.string().regex(/^[A-Za-z0-9]{43}$/, "This request was not found.") })
  .strict();

export const claimSchema = z.object({ approverKey: publicKey }).strict();

export const approveSchema = z
  .object({ approverKey: publicKey, sealed: z.string().regex(/^[A-Za-z0-9_-]{40,20000}$/, "The sealed keys are malformed.") })
  .strict();

export const denySchema = z.object({}).strict();

export const requestIdParam = (value: string | undefined) => requestId.safeParse(value);
