import { PBKDF2_ITERATIONS, deriveAccountSecrets, randomId } from "~/crypto";
import { api, ApiError } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { keepNewAccountKeys, makeAccountKeys } from "~/features/auth/signup.client";
import type { SsoLinkOffer, SsoSignUpOffer } from "~/features/sso/types";

/**
 * A first single sign-on: the key pairs are made here and wrapped with the encryption passphrase the
 * person chose, exactly as sign-up wraps them with a password (the passphrase never leaves the browser;
 * nothing derived from it is a login secret: the account signs in through the provider).
 */
export async function ssoSignUp(offer: SsoSignUpOffer, username: string, passphrase: string): Promise<SessionUser> {
  const id = randomId();
  const { keys, bundle } = await makeAccountKeys(id, offer.email, passphrase);
  let user: SessionUser;
  try {
    ({ user } = await api<{ user: SessionUser }>("/api/auth/sso/signup", { ticket: offer.ticket, id, username: username.trim(), ...keys }));
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
