import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { PBKDF2_ITERATIONS, deriveAccountSecrets, derivePasskeyWrapKey } from "~/crypto";
import { api } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { loadLocalKeys } from "~/lib/storage.client";
import { AuthError, keepUnwrappedKeys, restoreKeysFromProfile, signOutOnServer } from "~/features/auth/auth.client";
import type { PasskeySignInAnswer, PasskeyUnlock } from "~/features/passkeys/types";
import { ceremony, inProductWords, prfOutput, withoutExtensionResults, withPrf } from "~/features/passkeys/webauthn.client";

/**
 * "Sign in with a passkey": the server verifies the passkey and starts the same session a password
 * sign-in gets. The keys are then this device's own, or unwrapped with the passkey's PRF output (which
 * never leaves the browser); `unlocked: false` means the password is needed once (unlockWithPassword).
 */
export async function signInWithPasskey(): Promise<{ user: SessionUser; unlocked: boolean }> {
  const answer = await ceremony(async () => {
    const { options } = await api<{ options: PublicKeyCredentialRequestOptionsJSON }>("/api/auth/passkey/options", {});
    return startAuthentication({ optionsJSON: withPrf(options) });
  });
  const prf = prfOutput(answer.clientExtensionResults);
  try {
    const { user, unlock } = await inProductWords(() =>
      api<PasskeySignInAnswer>("/api/auth/passkey/signin", { response: withoutExtensionResults(answer) }),
    );
    if (loadLocalKeys(user.id)) return { user, unlocked: true };
    return { user, unlocked: prf !== null && (await unlockWithPrf(user, unlock, prf)) };
  } finally {
    prf?.fill(0);
  }
}

/** Opens the passkey's copy of the keys; false when it has none or it does not open (then the password). */
async function unlockWithPrf(user: SessionUser, unlock: PasskeyUnlock, prf: Uint8Array): Promise<boolean> {
  if (!unlock.wrappedEcdhPrivateKey || !unlock.wrappedRsaPrivateKey) return false;
  try {
    const wrapKey = await derivePasskeyWrapKey(prf, user.id, unlock.credentialId);
    await keepUnwrappedKeys(user, wrapKey, unlock.wrappedEcdhPrivateKey, unlock.wrappedRsaPrivateKey);
    return true;
  } catch {
    return false;
  }
}

/** The password, once, unwraps the keys on this device (in the browser: nothing is sent). */
export async function unlockWithPassword(user: SessionUser, password: string): Promise<void> {
  const { master } = await deriveAccountSecrets(password, user.email, PBKDF2_ITERATIONS);
  try {
    await restoreKeysFromProfile(user, master);
  } catch (error) {
    if (error instanceof AuthError && error.message !== "Sign in failed") throw new ChatError(error.message);
    throw new ChatError("This password does not unlock your encryption keys. Check it and try again.");
  }
}

/** Leaves a passkey sign-in whose keys stay locked: the session ends on the server. */
export const abandonPasskeySignIn = () => signOutOnServer();
