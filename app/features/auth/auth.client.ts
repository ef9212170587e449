import { deletePushKeys } from "~/features/push/push-db";
import { stopPushLearning } from "~/features/push/learning.client";
import { PBKDF2_ITERATIONS, deriveAccountSecrets, deriveWrapKey, unwrapIdentityKeys } from "~/crypto";
import { api, ApiError } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import { clearChannelSecrets, clearLocalKeys, loadLocalKeys, saveLocalKeys } from "~/lib/storage.client";
import { forgetVaultKeys } from "~/conversation/keyring/vault.client";
import { deleteSearchIndex } from "~/features/search/store.client";
import { forgetAllHistory } from "~/conversation/messages/history-cache.client";
import { forgetRetention } from "~/features/retention/retention.client";
import { forgetDrafts } from "~/features/messages/drafts.client";
import { emit } from "~/lib/events";
import { SIGN_OUT_UNCONFIRMED_MESSAGE } from "./signout-notice";

/** An error whose message is meant for the person at the screen. */
export class AuthError extends Error {}

/**
 * Sign-in: when this device has no keys for the account, they are unwrapped from the profile.
 * `failedSignIns`: wrong or refused attempts at the account since its last sign-in.
 */
export async function signIn(input: { email: string; password: string }): Promise<SessionUser & { failedSignIns: number }> {
  // Accounts are created with PBKDF2_ITERATIONS; the stored figure is read back after sign-in for unwrapping.
  const { loginSecret, master } = await deriveAccountSecrets(input.password, input.email, PBKDF2_ITERATIONS);
  let user: SessionUser;
  let failedSignIns = 0;
  try {
    ({ user, failedSignIns } = await api<{ user: SessionUser; failedSignIns: number }>("/api/auth/signin", {
      email: input.email.trim(),
      loginSecret,
    }));
  } catch (error) {
    throw new AuthError(error instanceof ApiError && error.message ? error.message : "Authentication failed");
  }
  // This device's keys, unless the account has other keys now (a reset without the recovery key).
  const local = loadLocalKeys(user.id);
  if (local && local.ecdhPublicKey === user.ecdhPublicKey && local.rsaPublicKey === user.rsaPublicKey) return { ...user, failedSignIns };
  try {
    await restoreKeysFromProfile(user, master);
  } catch (error) {
    await signOutOnServer();
    throw error;
  }
  return { ...user, failedSignIns };
}

/** Unwraps the profile's private keys with the password's master key and keeps them on this device. */
export async function restoreKeysFromProfile(user: SessionUser, master: CryptoKey) {
  if (!user.profileFound) throw new AuthError("Profile not found");
  if (!user.encryptedEcdhPrivateKey || !user.encryptedRsaPrivateKey || !user.ecdhPublicKey || !user.rsaPublicKey) {
    throw new AuthError("Encryption keys not found in profile. Please contact support.");
  }
  try {
    await keepUnwrappedKeys(user, await deriveWrapKey(master, user.id), user.encryptedEcdhPrivateKey, user.encryptedRsaPrivateKey);
  } catch {
    throw new AuthError("Sign in failed");
  }
}

/**
 * Unwraps a copy of the identity private keys (the password's, or another wrapping of the same keys) and
 * keeps them on this device, once they prove to be the private keys of the profile's public keys.
 */
export async function keepUnwrappedKeys(user: SessionUser, wrapKey: CryptoKey, wrappedEcdh: string, wrappedRsa: string) {
  const { stored } = await unwrapIdentityKeys({ ecdh: wrappedEcdh, rsa: wrappedRsa }, wrapKey, user.id, {
    ecdh: user.ecdhPublicKey,
    rsa: user.rsaPublicKey,
  });
  saveLocalKeys({ userId: user.id, ...stored });
}

/**
 * Ends the session on the server; answers what to tell the person when the server could not confirm
 * it (signing out locally still happens: ADR 66).
 */
export async function signOutOnServer(): Promise<string | undefined> {
  try {
    const answer = await api<{ confirmed?: boolean; message?: string }>("/api/auth/signout", {});
    return answer?.confirmed === false ? (answer.message ?? SIGN_OUT_UNCONFIRMED_MESSAGE) : undefined;
  } catch {
    return SIGN_OUT_UNCONFIRMED_MESSAGE;
  }
}

/**
 * Sign-out clears the local key bundle, every cached channel password (the keyring brings them back),
 * the messages this page keeps in memory, the local search index and the profile (spec §4).
 */
export async function signOut(): Promise<string | undefined> {
  // (the outbox stops first: a retry meeting the keys half gone would take its message for unsendable)
  emit("session:signing-out");
  // What this device read and has not sent to the user's message archive yet goes first (ADR 0048).
  await import("~/conversation/archive/archive.client").then((m) => m.archiveSent()).catch(() => undefined);
  stopPushLearning();
  clearLocalKeys();
  forgetAllHistory();
  forgetRetention();
  void forgetDrafts();
  clearChannelSecrets();
  forgetVaultKeys();
  // the push subscription goes first, while the session can still tell the server (the push code loads
  // only now; if it cannot, the keys kept for the service worker go all the same)
  const push = import("~/features/push/push.client").then((m) => m.disablePush(), deletePushKeys);
  const [, notice] = await Promise.all([deleteSearchIndex(), push.then(signOutOnServer)]);
  return notice;
}
