import {
  PBKDF2_ITERATIONS,
  decryptInviteName,
  decryptInvitePassword,
  deriveChannelMaster,
  encryptInviteName,
  encryptInvitePassword,
  randomUuid,
} from "~/crypto";
import { api, ApiError } from "~/lib/api.client";
import { ChatError, KeysMissingError } from "~/lib/errors";
import type { Channel } from "~/conversation/channels/types";
import { buildInviteLink } from "~/features/channels/invite";
import type { InviteLimits } from "~/features/invites/types";
import { deviceKeys } from "~/lib/device-keys.client";
import type { SessionUser } from "~/lib/session-user";
import { getChannelPassword, setChannelSecret } from "~/lib/storage.client";
import { saveToKeyring } from "~/conversation/keyring/keyring.client";
import { adoptMaster } from "~/conversation/channels/secrets.client";
import { forgetHistory } from "~/conversation/messages/history-cache.client";

/**
 * A channel's secrets for a create or join on this device: PBKDF2 once, its master kept for `remember`
 * (the keyring's copy spares the user's other devices the PBKDF2, ADR 35). The caller zeroes the master.
 */
async function newSecrets(channelId: string, password: string) {
  const master = await deriveChannelMaster(password, channelId, PBKDF2_ITERATIONS);
  return { master, ...(await adoptMaster(channelId, password, PBKDF2_ITERATIONS, master)) };
}

/** Keeps a channel's secret on this device and in the user's keyring (with its master), for every other device. */
async function remember(userId: string, channelId: string, password: string, master?: Uint8Array) {
  setChannelSecret(channelId, password, PBKDF2_ITERATIONS);
  try {
    await saveToKeyring(userId, channelId, password, PBKDF2_ITERATIONS, master);
  } catch (error) {
    // The next keyring sync adds it; this device reads the channel meanwhile.
    console.warn("The channel could not be added to the keyring yet", error);
  }
}

// ---- channels ----
/**
 * Creates a channel (`sealed`: an MLS group, whose first member is this device, made by the caller's
 * `prepare`). `id`: the one a create whose answer was lost asked for (the server answers the channel it
 * made then, not a second one).
 */
export async function createChannel(
  user: SessionUser | null,
  name: string,
  password: string,
  sealed = false,
  id = randomUuid(),
): Promise<string> {
  if (!user) throw new ChatError("User not authenticated");
  const keys = await deviceKeys(user.id);
  if (!keys) throw new KeysMissingError();
  const { verifier, master } = await newSecrets(id, password);
  try {
    await postChannel(id, name, verifier, user.ecdhPublicKey, sealed);
    await remember(user.id, id, password, master);
  } finally {
    master.fill(0);
  }
  return id;
}

async function postChannel(id: string, name: string, verifier: string, ecdhPublicKey: string, sealed: boolean) {
  try {
    await api<{ id: string }>("/api/channels", {
      id,
      name: name.trim(),
      verifier,
      ecdhPublicKey,
      kdfIterations: PBKDF2_ITERATIONS,
      sealed,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw new ChatError("User not authenticated");
    throw new ChatError(
      error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : "Failed to create channel",
    );
  }
}

export async function joinChannel(
  user: SessionUser | null,
  channelId: string,
  password: string,
  inviteId?: string,
): Promise<{ id: string; name: string }> {
  if (!user || !(await deviceKeys(user.id))) throw new ChatError("Not authenticated");
  const id = channelId.trim().toLowerCase();
  const { verifier, master } = await newSecrets(id, password);
  try {
    const joined = await postJoin(id, verifier, user.ecdhPublicKey, inviteId);
    await remember(user.id, joined.id, password, joined.id === id ? master : undefined);
    return joined;
  } finally {
    master.fill(0);
  }
}

async function postJoin(id: string, verifier: string, ecdhPublicKey: string, inviteId?: string) {
  let joined: { id: string; name: string };
  try {
    joined = await api<{ id: string; name: string }>("/api/channels/join", {
      channelId: id,
      verifier,
      ecdhPublicKey,
      ...(inviteId ? { inviteId } : {}),
    });
  } catch (error) {
    if (error instanceof ApiError) {
      if (error.status === 404) throw new ChatError("Channel not found");
      // a wrong password, or an invite or a ban that refuses the join (its own words)
      if (error.status === 403) throw new ChatError(error.message || "Incorrect password");
      if (error.status === 401) throw new ChatError("Not authenticated");
      if (error.status === 400 || error.status === 429) throw new ChatError(error.message);
    }
    throw new ChatError("Failed to join channel");
  }
  return joined;
}

/** Joins through an invite: the channel password is recovered from the link's key. */
export async function joinWithInvite(user: SessionUser | null, channelId: string, encryptedPassword: string, inviteId?: string) {
  let password: string;
  try {
    password = await decryptInvitePassword(channelId, encryptedPassword);
  } catch {
    throw new ChatError("This invite link is damaged or incomplete. Ask for a new one.");
  }
  return joinChannel(user, channelId, password, inviteId);
}

/** The channel password an invite seals: the spec's error when this device does not have it. */
export function sharePassword(channelId: string): string {
  const password = getChannelPassword(channelId);
  if (!password) throw new ChatError("Cannot create share link: Channel password not found. Please re-join the channel.");
  return password;
}

/** An invite with its limits made on the server, and its link (the channel password sealed in the fragment). */
export async function createShareLink(channelId: string, name: string, limits: InviteLimits): Promise<string> {
  const password = sharePassword(channelId);
  const [sealedPassword, sealedName, made] = await Promise.all([
    encryptInvitePassword(channelId, password),
    encryptInviteName(channelId, name),
    api<{ id: string }>(`/api/channels/${channelId}/invites`, limits),
  ]);
  return buildInviteLink(window.location.origin, channelId, sealedPassword, sealedName, made.id);
}

/** The invited channel's name, when the link carries one that opens here; null otherwise. */
export async function invitedChannelName(invite: { channelId: string; encryptedName?: string }): Promise<string | null> {
  if (!invite.encryptedName) return null;
  try {
    return await decryptInviteName(invite.channelId, invite.encryptedName);
  } catch {
    return null;
  }
}

export const listChannels = async () => (await api<{ channels: Channel[] }>("/api/channels")).channels;
export const leaveChannel = (id: string) => api(`/api/channels/${id}/leave`, {});
export const deleteChannel = (id: string) => api(`/api/channels/${id}/delete`, {});
/** Deletes every message of the channel (its creator); nothing of them stays in this page's memory. */
export const clearMessages = (id: string) => api<{ deleted: number }>(`/api/channels/${id}/clear`, {}).finally(() => forgetHistory(id));
