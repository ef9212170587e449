import { z } from "zod";
import { emailAddress } from "~/lib/schemas";

/** What "I have a reset code" sends: the account's address and the code as typed (checked by PocketBase). */
export const redeemSchema = z
  .object({
    email: emailAddress,
    code: z
      .string()
      .trim()
      .min(1, "Enter the reset code.")
      .max(40, "This reset code is not valid. Check it, or ask an administrator for a new one."),
  })
  .strict();
