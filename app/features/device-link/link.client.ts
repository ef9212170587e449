import { linkCode, newLinkKeyPair, openFromDevice, type LinkKeyPair } from "~/crypto";
import { api } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import { saveLocalKeys } from "~/lib/storage.client";
import { signOutOnServer } from "~/features/auth/auth.client";
import type { LinkState, StartedLink } from "~/features/device-link/types";
import { NOT_OPENED } from "~/features/device-link/texts";
import { ChatError } from "~/lib/errors";

// The new device's side of an approval (ADR 0059): its ephemeral key pair, the request, and the keys
// it receives. Signed out it signs in by it; signed in (a passkey without PRF) only the keys travel.

export interface LinkRequest {
  id: string;
  secret: string;
  expires: number;
  keys: LinkKeyPair;
  /** The signed-in account when the device has a session already (only the keys travel). */
  user: SessionUser | null;
}

/** Starts a request for the account `identity` names (signed out), or for `user`'s keys (signed in). */
export async function startRequest(input: { identity: string } | { user: SessionUser }): Promise<LinkRequest> {
  const keys = await newLinkKeyPair();
  const body = "identity" in input ? { identity: input.identity.trim(), deviceKey: keys.publicKey } : { deviceKey: keys.publicKey };
  const started = await api<StartedLink>("/api/auth/device-link", body);
  const expires = new Date(started.expires.replace(" ", "T")).getTime();
  return { id: started.id, secret: started.secret, expires, keys, user: "user" in input ? input.user : null };
}

export const pollRequest = (request: LinkRequest) =>
  api<LinkState>("/api/auth/device-link/poll", { id: request.id, secret: request.secret });

export const codeOf = (request: LinkRequest, approverKey: string) => linkCode(request.id, request.keys.publicKey, approverKey);

export async function cancelRequest(request: LinkRequest) {
  await api("/api/auth/device-link/cancel", { id: request.id, secret: request.secret }).catch(() => undefined);
}

/**
 * Opens the keys sealed to this device and keeps them, once they prove to be the account's. A sign-in
 * whose keys do not open ends its session again.
 */
export async function receiveKeys(request: LinkRequest, answer: Extract<LinkState, { state: "approved" }>): Promise<SessionUser> {
  const user = answer.user ?? request.user;
  if (!user) throw new ChatError(NOT_OPENED);
  try {
    const stored = await openFromDevice(
      answer.sealed,
      request.keys,
      { id: request.id, approverKey: answer.approverKey },
      { ecdh: user.ecdhPublicKey, rsa: user.rsaPublicKey },
    );
    saveLocalKeys({ userId: user.id, ...stored });
    return user;
  } catch {
    if (!request.user) await signOutOnServer();
    throw new ChatError(NOT_OPENED);
  }
}
