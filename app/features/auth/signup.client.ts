import {
  PBKDF2_ITERATIONS,
  deriveAccountSecrets,
  deriveWrapKey,
  exportKeyBundle,
  exportPublicKey,
  generateKeyBundle,
  randomId,
  wrapIdentityKeys,
} from "~/crypto";
import { api, ApiError } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import { saveLocalKeys } from "~/lib/storage.client";
import { AuthError } from "~/features/auth/auth.client";
import { keepPoolFilled } from "~/conversation/mls/pool.client";

/** How long sign-up waits for this device's first key packages before the workspace shows (it tries again there). */
const PACKAGES_WAIT_MS = 10_000;

// (loaded when Sign Up is submitted: a page that signs in does without it)
/**
 * Sign-up (spec §4, design.md §3): keys are generated here, the password is split into the login secret
 * (the only thing the server receives) and the wrap key (never leaves the browser).
 */
export async function signUp(input: { username: string; email: string; password: string }): Promise<SessionUser> {
  const id = randomId();
  const { loginSecret, keys, bundle } = await makeAccountKeys(id, input.email, input.password);
  let user: SessionUser;
  try {
    ({ user } = await api<{ user: SessionUser }>("/api/auth/signup", {
      id,
      email: input.email.trim(),
      loginSecret,
      username: input.username.trim(),
      ...keys,
    }));
  } catch (error) {
    throw new AuthError(error instanceof ApiError && error.message ? error.message : "Sign up failed");
  }
  return keepNewAccountKeys(user, bundle);
}

/**
 * A new account's key pairs, wrapped with the key the secret derives (a password, or single sign-on's
 * encryption passphrase): what sign-up sends, the login secret, and the bundle to keep once it exists.
 */
export async function makeAccountKeys(id: string, email: string, secret: string) {
  const { loginSecret, master } = await deriveAccountSecrets(secret, email, PBKDF2_ITERATIONS);
  const [bundle, wrapKey] = await Promise.all([generateKeyBundle(), deriveWrapKey(master, id)]);
  const [ecdhPublicKey, rsaPublicKey, wrapped] = await Promise.all([
    exportPublicKey(bundle.ecdhPublicKey),
    exportPublicKey(bundle.rsaPublicKey),
    wrapIdentityKeys(bundle, wrapKey, id),
  ]);
  const keys = {
    ecdhPublicKey,
    rsaPublicKey,
    encryptedEcdhPrivateKey: wrapped.ecdh,
    encryptedRsaPrivateKey: wrapped.rsa,
    kdfIterations: PBKDF2_ITERATIONS,
  };
  return { loginSecret, keys, bundle };
}

/** The new account's keys stay on this device, and its first key packages go out before the workspace shows. */
export async function keepNewAccountKeys(user: SessionUser, bundle: Awaited<ReturnType<typeof generateKeyBundle>>): Promise<SessionUser> {
  saveLocalKeys({ userId: user.id, ...(await exportKeyBundle(bundle)) });
  // The new device's key packages before its workspace is shown (ADR 0047): a conversation started with
  // the new account a second later adds this device with a Welcome and it reads the first message.
  await Promise.race([
    keepPoolFilled(user).catch((error) => console.warn("This device's key packages could not be sent yet", error)),
    new Promise((resolve) => setTimeout(resolve, PACKAGES_WAIT_MS)),
  ]);
  return user;
}
