import { createHash } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { setBounded } from "~/lib/bounded-map";
import { sessionEndReason, SESSION_ENDED_MESSAGE } from "~/lib/errors";
import { fail } from "~/server/responses.server";
import { failOnOutage, failOnTooMany } from "~/server/outage.server";
import { pbErrorMessage, pbStatus, pocketbase } from "~/server/pocketbase.server";

// Signing out revokes the PocketBase token on the server (pocketbase/sessions.go), so a copy of an
// old session cookie no longer works: PocketBase treats its token as a guest's. The web server asks
// PocketBase whether a session's token is still valid and remembers a "yes" for a short while, so
// most requests need no extra round trip; signing out through this server forgets it at once.
const VALID_FOR_MS = 30_000;
const MAX_ENTRIES = 10_000;
const confirmed = new Map<string, number>();

const key = (token: string) => createHash("sha256").update(token).digest("base64url");

export { SESSION_ENDED_MESSAGE };

/** Throws 401 unless PocketBase still accepts the session's token (503 while it cannot be asked). */
export async function requireLiveSession(token: string, context?: AppLoadContext): Promise<void> {
  const id = key(token);
  const until = confirmed.get(id);
  if (until !== undefined && until > Date.now()) return;
  confirmed.delete(id);
  try {
    await pocketbase(token, context).send("/api/chat/session", { method: "GET" });
  } catch (error) {
    failOnOutage(error);
    // a deactivated account's pages say why (pocketbase/deactivated.go), as do those an administrator signed out (admin_signout.go)
    if (pbStatus(error) === 401 || pbStatus(error) === 403) fail(401, sessionEndReason(pbErrorMessage(error)) ?? SESSION_ENDED_MESSAGE);
    failOnTooMany(error);
    fail(502, "The session could not be checked. Please try again.");
  }
  setBounded(confirmed, id, Date.now() + VALID_FOR_MS, MAX_ENTRIES);
}

/**
 * For a request that PocketBase itself refuses to a signed-out token (it needs a signed-in user:
 * pocketbase/sessions.go treats a revoked token as a guest's), the check can follow the request
 * instead of preceding it, and only when PocketBase refused it: this asks PocketBase afresh (a "yes"
 * remembered here may predate a sign-out through another web process) and throws 401 when the
 * session ended, so the page is told to sign in again rather than the refusal's own reason.
 */
export async function requireLiveSessionAfterRefusal(token: string, context?: AppLoadContext): Promise<void> {
  confirmed.delete(key(token));
  await requireLiveSession(token, context);
}

/**
 * Forgets that the session whose token has this SHA-256 (hex, as PocketBase's relay names a revoked
 * session) was valid: its next request asks PocketBase again.
 */
export function forgetSession(hashHex: string): void {
  if (/^[0-9a-f]{64}$/.test(hashHex)) confirmed.delete(Buffer.from(hashHex, "hex").toString("base64url"));
}

/** Forgets that this token's session was valid (a password change replaced it). */
export function forgetToken(token: string): void {
  confirmed.delete(key(token));
}

/** Revokes the token in PocketBase (it stays refused until it would have expired). */
export async function revokeSession(token: string, context?: AppLoadContext): Promise<void> {
  confirmed.delete(key(token));
  try {
    await pocketbase(token, context).send("/api/chat/signout", { method: "POST" });
  } catch (error) {
    // An already invalid or revoked token has nothing left to revoke.
    if (pbStatus(error) === 401 || pbStatus(error) === 403) return;
    failOnOutage(error);
    failOnTooMany(error);
    fail(502, "Signing out failed. Please try again.");
  }
}
