import { randomId } from "~/crypto";
import { api, ApiError } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { keepNewAccountKeys, makeAccountKeys } from "~/features/auth/signup.client";
import type { SsoSignUpOffer } from "~/features/sso/types";

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
