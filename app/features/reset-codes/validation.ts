import { z } from "zod";

/** What "I have a reset code" sends: the account's address and the code as typed (checked by PocketBase). */
export const redeemSchema = z
  .object({
    email: z.string().trim().email("Please enter a valid email address.").max(254),
    code: z
      .string()
      .trim()
      .min(1, "Enter the reset code.")
      .max(40, "This reset code is not valid. Check it, or ask an administrator for a new one."),
  })
  .strict();
