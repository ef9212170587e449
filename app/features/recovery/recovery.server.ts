import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";
import type { RecoveryKeyStatus, RecoveryWrapping, ResetAccount, ResetConfirm } from "~/features/recovery/types";

// Account recovery on the web server: it moves wrapped keys, public keys and the login secret between
// the page and PocketBase's hooks (pb_hooks/recovery.pb.js); it never holds a key or a password.

export const RESET_SENT = "If an account exists for that address, we sent a link to reset its password.";
export const RESET_UNAVAILABLE = "Password reset by email is not set up on this server. Ask the person who runs it.";
const UNREACHABLE = "The chat server is not reachable right now. Please try again.";
const TOO_MANY = "Too many attempts. Please wait a few minutes and try again.";

/** A failed call to PocketBase as the page should hear it: its 4xx message, 429 as it is, anything else a 502. */
function rethrow(error: unknown, fallback: string): never {
  const status = pbStatus(error);
  if (status === 429) fail(429, TOO_MANY);
  if (status === 401 || status === 403) fail(401, "Not authenticated");
  if (status >= 400 && status < 500) fail(400, pbErrorMessage(error) ?? fallback);
  fail(502, status === 0 ? UNREACHABLE : fallback);
}

/** The caller's recovery key: only when it was made (PocketBase's rules scope it to the owner). */
export async function recoveryKeyStatus(pb: PocketBase, userId: string): Promise<RecoveryKeyStatus> {
  try {
    const records = await pb.collection("recovery_keys").getList<{ created: string }>(1, 1, {
      filter: pb.filter("user = {:user}", { user: userId }),
      fields: "created",
    });
    return { created: records.items[0]?.created ?? null };
  } catch (error) {
    rethrow(error, "Your recovery key could not be looked up.");
  }
}

/** Stores the keys wrapped under a new recovery key, replacing the old wrapping. */
export async function saveRecoveryWrapping(pb: PocketBase, wrapping: RecoveryWrapping): Promise<RecoveryKeyStatus> {
  try {
    const saved = await pb.send<{ created: string }>("/api/chat/recovery-key", {
      method: "POST",
      body: { wrapped_ecdh: wrapping.wrappedEcdh, wrapped_rsa: wrapping.wrappedRsa },
    });
    return { created: saved.created || null };
  } catch (error) {
    rethrow(error, "The recovery key could not be saved. Please try again.");
  }
}

/** Whether this server can send reset emails (SMTP configured). */
export async function resetByEmail(pb: PocketBase): Promise<boolean> {
  try {
    return (await pb.send<{ available: boolean }>("/api/chat/password-reset", { method: "GET" })).available === true;
  } catch (error) {
    rethrow(error, UNREACHABLE);
  }
}

/** Asks PocketBase to email a reset link; the same answer whether or not the address has an account. */
export async function askForReset(pb: PocketBase, email: string): Promise<string> {
  if (!(await resetByEmail(pb))) fail(400, RESET_UNAVAILABLE);
  try {
    await pb.collection("users").requestPasswordReset(email);
  } catch (error) {
    rethrow(error, "The reset email could not be sent. Please try again.");
  }
  return RESET_SENT;
}

type OpenAnswer = {
  user_id: string;
  email: string;
  ecdh_public_key: string;
  rsa_public_key: string;
  passkey_unlocks?: boolean;
  recovery: { wrapped_ecdh: string; wrapped_rsa: string; created: string } | null;
};

/** What the reset link's token opens (checked by PocketBase); a bad, expired or used token is a 400. */
export async function openReset(pb: PocketBase, token: string): Promise<ResetAccount> {
  let answer: OpenAnswer;
  try {
    answer = await pb.send<OpenAnswer>("/api/chat/password-reset/open", { method: "POST", body: { token } });
  } catch (error) {
    rethrow(error, "The reset link could not be checked. Please try again.");
  }
  return {
    userId: answer.user_id,
    email: answer.email,
    ecdhPublicKey: answer.ecdh_public_key,
    rsaPublicKey: answer.rsa_public_key,
    passkeyUnlocks: answer.passkey_unlocks === true,
    recovery: answer.recovery
      ? { wrappedEcdh: answer.recovery.wrapped_ecdh, wrappedRsa: answer.recovery.wrapped_rsa, created: answer.recovery.created }
      : null,
  };
}

/** The reset itself, in one step on PocketBase: new login secret, keys wrapped for it, every session ended. */
export async function confirmReset(pb: PocketBase, body: ResetConfirm): Promise<{ keys: "kept" | "new" }> {
  try {
    return await pb.send<{ keys: "kept" | "new" }>("/api/chat/password-reset/confirm", {
      method: "POST",
      body: {
        token: body.token,
        password: body.loginSecret,
        encrypted_ecdh_private_key: body.encryptedEcdhPrivateKey,
        encrypted_rsa_private_key: body.encryptedRsaPrivateKey,
        kdf_iterations: body.kdfIterations,
        ...(body.newPublicKeys
          ? { ecdh_public_key: body.newPublicKeys.ecdhPublicKey, rsa_public_key: body.newPublicKeys.rsaPublicKey }
          : {}),
      },
    });
  } catch (error) {
    rethrow(error, "Your password could not be reset. Please try again.");
  }
}
