import { z } from "zod";

/** Schemas several features' requests share. */

/** A PocketBase record id (a message's, here). */
export const recordId = z.string().regex(/^[a-z0-9]{15}$/, "Invalid message id.");

/** A sealed field: base64url of at most `max` characters. */
export const cipherText = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, "Encrypted fields must be base64url.");
