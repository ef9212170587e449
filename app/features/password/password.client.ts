import { PBKDF2_ITERATIONS, deriveAccountSecrets, deriveWrapKey, importKeyBundle, wrapPrivateKey } from "~/crypto";
import { api, ApiError, whileSessionChanges } from "~/lib/api.client";
import { ChatError, KeysMissingError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { loadLocalKeys } from "~/lib/storage.client";

export const PASSWORD_CHANGED = "Your password was changed. Other devices were signed out.";
const UNREACHABLE = "The server could not be reached. Your password was not changed.";
const FAILED = "The password could not be changed. Your current password still works.";

/** The PBKDF2 count of the account's password as this page last set it (the session's figure until then). */
let iterationsSet: { userId: string; iterations: number } | null = null;

/**
 * Change password (ADR 26): the current password's login secret, for the server to check; the new
 * password's login secret and wrap key, derived here; this device's identity private keys wrapped
 * again under the new wrap key. One request carries it all, and the server applies it in one
 * transaction, so until it answers the current password keeps working everywhere. Neither password
 * leaves the browser. Every other session of the account is signed out; this one gets a new token.
 */
export async function changePassword(user: SessionUser, input: { current: string; next: string }): Promise<void> {
  const stored = loadLocalKeys(user.id);
  if (!stored) throw new KeysMissingError();
  const currentIterations = iterationsSet?.userId === user.id ? iterationsSet.iterations : user.kdfIterations || PBKDF2_ITERATIONS;
  const [bundle, current, next] = await Promise.all([
    importKeyBundle(stored),
    deriveAccountSecrets(input.current, user.email, currentIterations),
    deriveAccountSecrets(input.next, user.email, PBKDF2_ITERATIONS),
  ]);
  const wrapKey = await deriveWrapKey(next.master, user.id);
  const [encryptedEcdhPrivateKey, encryptedRsaPrivateKey] = await Promise.all([
    wrapPrivateKey(bundle.ecdhPrivateKey, wrapKey, "ecdh", user.id),
    wrapPrivateKey(bundle.rsaPrivateKey, wrapKey, "rsa", user.id),
  ]);
  try {
    await whileSessionChanges(() =>
      api("/api/auth/password", {
        currentLoginSecret: current.loginSecret,
        loginSecret: next.loginSecret,
        encryptedEcdhPrivateKey,
        encryptedRsaPrivateKey,
        kdfIterations: PBKDF2_ITERATIONS,
      }),
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw new ChatError(FAILED);
    if (error.status === 0) throw new ChatError(UNREACHABLE);
    throw new ChatError(error.status < 500 && error.message ? error.message : FAILED);
  }
  iterationsSet = { userId: user.id, iterations: PBKDF2_ITERATIONS };
}
