/**
 * The account's email address and its deletion, in the browser (docs/decisions/0029-change-email-delete-export.md).
 * The email is the PBKDF2 salt of the login secret and of the wrap key (app/crypto/account.ts): a new
 * address needs a new login secret and the private keys wrapped again, and the server takes all three
 * in one step. Only derived values leave the page, never the password.
 */
import { PBKDF2_ITERATIONS, deriveAccountSecrets, deriveWrapKey, unwrapPrivateKey, wrapPrivateKey } from "~/crypto";
import { api, whileSessionChanges } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { signOut } from "~/features/auth/auth.client";
import { listChannels } from "~/features/channels/channels.client";
import { conversationOf } from "~/conversation/conversation.client";
import type { DeletedAccount, EmailChangeKeys } from "~/features/account-data/types";

const loginSecretOf = async (password: string, email: string) =>
  (await deriveAccountSecrets(password, email, PBKDF2_ITERATIONS)).loginSecret;

/** Mails a confirmation link to the new address (Menu > Account > Email); nothing changes until it is opened. */
export async function requestEmailChange(user: SessionUser, newEmail: string, password: string) {
  const loginSecret = await loginSecretOf(password, user.email);
  return api<{ sent: boolean; newEmail: string }>("/api/account/email", { newEmail: newEmail.trim(), loginSecret });
}

/** The addresses an email-change link names (read from its token, for the page to show; the server checks the token). */
export function readEmailChangeLink(token: string): { email: string; newEmail: string } | null {
  try {
    const payload = atob((token.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(payload, (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as { email?: unknown; newEmail?: unknown };
    if (typeof claims.email !== "string" || typeof claims.newEmail !== "string" || !claims.email || !claims.newEmail) return null;
    return { email: claims.email, newEmail: claims.newEmail };
  } catch {
    return null;
  }
}

/**
 * The identity private keys wrapped under the wrap key of `to` instead of `from` (the same account,
 * another salt or password). The new envelopes are opened once before they are used.
 */
export async function rewrapIdentityKeys(
  wrapped: Pick<EmailChangeKeys, "id" | "encryptedEcdhPrivateKey" | "encryptedRsaPrivateKey">,
  from: CryptoKey,
  to: CryptoKey,
): Promise<{ encryptedEcdhPrivateKey: string; encryptedRsaPrivateKey: string }> {
  const [fromKey, toKey] = await Promise.all([deriveWrapKey(from, wrapped.id), deriveWrapKey(to, wrapped.id)]);
  let ecdh: CryptoKey, rsa: CryptoKey;
  try {
    [ecdh, rsa] = await Promise.all([
      unwrapPrivateKey(wrapped.encryptedEcdhPrivateKey, fromKey, "ecdh", wrapped.id),
      unwrapPrivateKey(wrapped.encryptedRsaPrivateKey, fromKey, "rsa", wrapped.id),
    ]);
  } catch {
    throw new ChatError("Your encryption keys could not be opened with this password.");
  }
  const [encryptedEcdhPrivateKey, encryptedRsaPrivateKey] = await Promise.all([
    wrapPrivateKey(ecdh, toKey, "ecdh", wrapped.id),
    wrapPrivateKey(rsa, toKey, "rsa", wrapped.id),
  ]);
  await Promise.all([
    unwrapPrivateKey(encryptedEcdhPrivateKey, toKey, "ecdh", wrapped.id),
    unwrapPrivateKey(encryptedRsaPrivateKey, toKey, "rsa", wrapped.id),
  ]);
  return { encryptedEcdhPrivateKey, encryptedRsaPrivateKey };
}

/** Whether the emailed link still works, asked before the password: throws the server's refusal (a used or expired link). */
export const checkEmailChangeLink = (token: string) => api<{ valid: boolean }>("/api/account/email-change/check", { token });

/**
 * The page of the emailed link: with the password, derives the secrets of the current address (to
 * prove it and fetch the wrapped keys) and of the new one, wraps the keys again and confirms. Every
 * session of the account ends; the new address signs in with the same password.
 */
export async function confirmEmailChange(token: string, link: { email: string }, password: string): Promise<string> {
  const current = await deriveAccountSecrets(password, link.email, PBKDF2_ITERATIONS);
  const { keys } = await api<{ keys: EmailChangeKeys }>("/api/account/email-change/keys", { token, loginSecret: current.loginSecret });
  const next = await deriveAccountSecrets(password, keys.newEmail, PBKDF2_ITERATIONS);
  const rewrapped = await rewrapIdentityKeys(keys, current.master, next.master);
  const { email } = await api<{ email: string }>("/api/account/email-change/confirm", {
    token,
    loginSecret: current.loginSecret,
    newLoginSecret: next.loginSecret,
    ...rewrapped,
    kdfIterations: PBKDF2_ITERATIONS,
  });
  return email;
}

export type DeleteStep = "checking" | "leaving" | "deleting";

/**
 * Deletes the account: the password is checked first; then the user leaves the list inside each
 * direct conversation's group (only a participant can take someone off it, ADR 19; best effort), then
 * the server deletes the account, and this browser forgets it (keys, channel passwords, search index,
 * the account's entries in local storage).
 */
export async function deleteMyAccount(user: SessionUser, password: string, onStep: (step: DeleteStep) => void): Promise<DeletedAccount> {
  onStep("checking");
  const loginSecret = await loginSecretOf(password, user.email);
  await api<DeletedAccount>("/api/account/delete", { loginSecret, dryRun: true });
  onStep("leaving");
  const direct = (await listChannels().catch(() => [])).filter((c) => c.direct);
  for (const channel of direct) {
    await conversationOf(user, channel)
      .changeParticipants({ leave: true })
      .catch((error: unknown) => console.warn("A direct conversation's list could not be changed", error));
  }
  onStep("deleting");
  // the deletion ends every session of the account: what other requests hear meanwhile (401) is not a
  // session ended elsewhere, and the page goes to /account-deleted
  const deleted = await whileSessionChanges(async () => {
    const answer = await api<DeletedAccount>("/api/account/delete", { loginSecret });
    await signOut().catch(() => undefined);
    return answer;
  });
  for (const key of Object.keys(localStorage)) if (key.includes(user.id)) localStorage.removeItem(key);
  return deleted;
}
