import {
  PBKDF2_ITERATIONS,
  deriveAccountSecrets,
  deriveRecoveryWrapKey,
  deriveWrapKey,
  exportPublicKey,
  generateKeyBundle,
  unwrapIdentityKeys,
  wrapIdentityKeys,
  type KeyBundle,
} from "~/crypto";
import { api } from "~/lib/api.client";
import { deviceKeys } from "~/lib/device-keys.client";
import { ChatError, KeysMissingError } from "~/lib/errors";
import type { RecoveryKeyStatus, ResetAccount, ResetConfirm } from "~/features/recovery/types";
import { readRecoveryKey } from "~/features/recovery/words";

/**
 * Account recovery in the browser (docs/decisions/0027-recovery-key-and-password-reset.md). The recovery
 * key and the new password never leave this page: the server gets the keys wrapped under them, and the
 * login secret derived from the password.
 */

/** An error whose message is for the person at the screen. */
export class RecoveryError extends ChatError {}

export const WRONG_RECOVERY_KEY = "This recovery key does not open your account's keys. Check each word, or reset without it.";

export const recoveryKeyStatus = () => api<RecoveryKeyStatus>("/api/recovery-key");

/** Wraps this device's identity keys under the recovery key's entropy and stores that on the server (replacing any older one). */
export async function saveRecoveryKey(userId: string, entropy: Uint8Array): Promise<RecoveryKeyStatus> {
  const bundle = await deviceKeys(userId);
  if (!bundle) throw new KeysMissingError();
  const wrapped = await wrapIdentityKeys(bundle, await deriveRecoveryWrapKey(entropy, userId), userId);
  return api<RecoveryKeyStatus>("/api/recovery-key", { wrappedEcdh: wrapped.ecdh, wrappedRsa: wrapped.rsa });
}

/** What the reset link's token opens: the account and its recovery wrapping. */
export const openResetLink = (token: string) => api<ResetAccount>("/api/auth/reset-password", { intent: "open", token });

/** The keys wrapped under the new password, and the login secret derived from it (the email is the salt). */
async function forPassword(account: ResetAccount, bundle: KeyBundle, password: string) {
  const { loginSecret, master } = await deriveAccountSecrets(password, account.email, PBKDF2_ITERATIONS);
  const wrapped = await wrapIdentityKeys(bundle, await deriveWrapKey(master, account.userId), account.userId);
  return { loginSecret, encryptedEcdhPrivateKey: wrapped.ecdh, encryptedRsaPrivateKey: wrapped.rsa, kdfIterations: PBKDF2_ITERATIONS };
}

const confirm = (body: ResetConfirm) => api<{ keys: "kept" | "new" }>("/api/auth/reset-password", { intent: "confirm", ...body });

/** The recovery key opens the account's keys; the new password wraps them again. Every channel reads as before. */
export async function resetWithRecoveryKey(token: string, account: ResetAccount, recoveryKey: string, password: string) {
  if (!account.recovery) throw new RecoveryError("This account has no recovery key.");
  const read = readRecoveryKey(recoveryKey);
  if ("problem" in read) throw new RecoveryError(read.problem);
  let bundle: KeyBundle;
  try {
    const key = await deriveRecoveryWrapKey(read.entropy, account.userId);
    ({ bundle } = await unwrapIdentityKeys({ ecdh: account.recovery.wrappedEcdh, rsa: account.recovery.wrappedRsa }, key, account.userId, {
      ecdh: account.ecdhPublicKey,
      rsa: account.rsaPublicKey,
    }));
  } catch {
    throw new RecoveryError(WRONG_RECOVERY_KEY);
  } finally {
    read.entropy.fill(0);
  }
  await confirm({ token, ...(await forPassword(account, bundle, password)) });
}

/** Without the recovery key: new identity keys, wrapped under the new password; the old ones are lost. */
export async function resetWithoutRecoveryKey(token: string, account: ResetAccount, password: string) {
  const bundle = await generateKeyBundle();
  const [ecdhPublicKey, rsaPublicKey, secrets] = await Promise.all([
    exportPublicKey(bundle.ecdhPublicKey),
    exportPublicKey(bundle.rsaPublicKey),
    forPassword(account, bundle, password),
  ]);
  await confirm({ token, ...secrets, newPublicKeys: { ecdhPublicKey, rsaPublicKey } });
}
