import { PBKDF2_ITERATIONS, deriveAccountSecrets, deriveWrapKey, randomId, wrapIdentityKeys } from "~/crypto";
import { api, ApiError } from "~/lib/api.client";
import { deviceKeys } from "~/lib/device-keys.client";
import { ChatError, KeysMissingError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { keepNewAccountKeys, makeAccountKeys } from "~/features/auth/signup.client";
import type { SsoLinkOffer, SsoSignUpOffer } from "~/features/sso/types";

/**
 * A first single sign-on: the key pairs are made here and wrapped with the encryption passphrase the
 * person chose, exactly as sign-up wraps them with a password (the passphrase never leaves the browser;
 * nothing derived from it is a login secret: the account signs in through the provider).
 */
export async function ssoSignUp(
  offer: SsoSignUpOffer,
  username: string,
  passphrase: string,
  passphraseLater = false,
): Promise<SessionUser> {
  const id = randomId();
  const { keys, bundle } = await makeAccountKeys(id, offer.email, passphrase);
  let user: SessionUser;
  try {
    ({ user } = await api<{ user: SessionUser }>("/api/auth/sso/signup", {
      ticket: offer.ticket,
      id,
      username: username.trim(),
      ...keys,
      ...(passphraseLater ? { passphraseLater } : {}),
    }));
  } catch (error) {
    throw new ChatError(error instanceof ApiError && error.message ? error.message : "Setting up your account failed. Please try again.");
  }
  return keepNewAccountKeys(user, bundle);
}

/** Unlocks the keys on this device with the encryption passphrase (in the browser: nothing is sent). */
export async function unlockWithPassphrase(user: SessionUser, passphrase: string): Promise<void> {
  const { unlockWithPassword } = await import("~/features/passkeys/signin.client");
  try {
    await unlockWithPassword(user, passphrase);
  } catch {
    throw new ChatError("This passphrase does not unlock your encryption keys. Check it and try again.");
  }
}

/**
 * Links single sign-on to the password account with the offer's email: the password proves it once
 * (only its login secret is sent, as at sign-in), then unwraps the account's keys here, as sign-in does.
 */
export async function linkWithPassword(offer: SsoLinkOffer, password: string): Promise<SessionUser> {
  const { loginSecret, master } = await deriveAccountSecrets(password, offer.email, PBKDF2_ITERATIONS);
  let user: SessionUser;
  try {
    ({ user } = await api<{ user: SessionUser }>("/api/auth/sso/link", { ticket: offer.ticket, loginSecret }));
  } catch (error) {
    throw new ChatError(error instanceof ApiError && error.message ? error.message : "Linking failed. Please try again.");
  }
  const { restoreKeysFromProfile } = await import("~/features/auth/auth.client");
  await restoreKeysFromProfile(user, master);
  return user;
}

/**
 * A first sign-in that sets up encryption with a passkey (ADR 81): the account is created with its keys
 * wrapped under 32 random bytes this page forgets at once (so only this device, then the passkey and
 * the recovery key, open them), and the passkey wraps them with its PRF output. Answers the account and
 * whether the passkey unlocks the keys on other devices (false: the authenticator gave no PRF).
 */
export async function ssoSignUpWithPasskey(offer: SsoSignUpOffer, username: string): Promise<{ user: SessionUser; unlocks: boolean }> {
  const forgotten = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  const user = await ssoSignUp(offer, username, forgotten, true);
  const { addPasskey } = await import("~/features/passkeys/manage.client");
  try {
    return { user, unlocks: (await addPasskey(user, "Single sign-on device")).unlocks };
  } catch (error) {
    throw new PasskeyNotAdded(user, error instanceof Error ? error.message : "The passkey could not be added.");
  }
}

/** The account exists and this device holds its keys, but the passkey was not added. */
export class PasskeyNotAdded extends ChatError {
  constructor(
    readonly user: SessionUser,
    message: string,
  ) {
    super(message);
  }
}

/** After a passkey: the keys of this device wrapped under an encryption passphrase too (it is never sent). */
export async function savePassphrase(user: SessionUser, ticket: string, passphrase: string): Promise<void> {
  const keys = await deviceKeys(user.id);
  if (!keys) throw new KeysMissingError();
  const { master } = await deriveAccountSecrets(passphrase, user.email, PBKDF2_ITERATIONS);
  const wrapped = await wrapIdentityKeys(keys, await deriveWrapKey(master, user.id), user.id);
  try {
    await api("/api/auth/sso/passphrase", {
      ticket,
      encryptedEcdhPrivateKey: wrapped.ecdh,
      encryptedRsaPrivateKey: wrapped.rsa,
      kdfIterations: PBKDF2_ITERATIONS,
    });
  } catch (error) {
    throw new ChatError(
      error instanceof ApiError && error.message ? error.message : "The passphrase could not be saved. Please try again.",
    );
  }
}

/**
 * A later device with the account's passkey (synced, or a security key): the passkey signs in again and
 * its PRF output unwraps the keys here. Another account's passkey ends that session: sign in again.
 */
export async function unlockWithPasskey(user: SessionUser): Promise<void> {
  const { abandonPasskeySignIn, signInWithPasskey } = await import("~/features/passkeys/signin.client");
  const { user: passkeys, unlocked } = await signInWithPasskey();
  if (passkeys.id !== user.id) {
    await abandonPasskeySignIn().catch(() => undefined);
    throw new ChatError("This passkey belongs to another account. Sign in again.");
  }
  if (!unlocked)
    throw new ChatError("This passkey cannot unlock your encryption keys. Enter your passphrase or approve from another device.");
}
