import { z } from "zod";
import { kdfIterations, loginSecret, wrapped } from "~/features/auth/validation";

/** What POST /api/auth/password accepts: login secrets and wrapped keys, never a password. */
export const changePasswordRequestSchema = z.object({
  currentLoginSecret: loginSecret,
  loginSecret,
  encryptedEcdhPrivateKey: wrapped,
  encryptedRsaPrivateKey: wrapped,
  kdfIterations,
});
