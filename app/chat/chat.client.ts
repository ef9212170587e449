import {
  PBKDF2_ITERATIONS,
  decryptInvitePassword,
  decryptMessage,
  deriveChannelSecrets,
  encryptInvitePassword,
  encryptMessage,
  importRsaPublicKey,
  randomUuid,
} from "~/crypto";
import { api, ApiError } from "~/api.client";
import type { Channel, EncryptedMessage, PublicProfile } from "~/chat-types";
import { decryptAttachments, decryptPreviews, type DecryptedAttachment, type DecryptedPreview } from "~/chat/decrypt-extras";
import { buildInviteLink } from "~/chat/invite";
import { deviceKeys } from "~/chat/session-keys.client";
import type { SessionUser } from "~/session-user";
import { getChannelPassword, setChannelPassword } from "~/storage.client";

/** An error whose message is one of the product's texts, meant for the person at the screen. */
export class ChatError extends Error {}

export interface DecryptedMessage {
  id: string;
  channelId: string;
  senderId: string;
  senderUsername: string;
  text: string;
  created: string;
  own: boolean;
  attachments: DecryptedAttachment[];
  previews: DecryptedPreview[];
}

const KEYS_MISSING = "Encryption keys not found. Please sign in again on this device.";

// ---- channel keys: PBKDF2 is slow on purpose, so each channel's key is derived once per page ----
const secretsCache = new Map<string, Promise<{ key: CryptoKey; verifier: string }>>();

function channelSecrets(channelId: string, password: string, iterations = PBKDF2_ITERATIONS) {
  const cacheKey = `${channelId}\u0000${iterations}\u0000${password}`;
  let secrets = secretsCache.get(cacheKey);
  if (!secrets) {
    secrets = deriveChannelSecrets(password, channelId, iterations);
    secretsCache.set(cacheKey, secrets);
    secrets.catch(() => secretsCache.delete(cacheKey));
  }
  return secrets;
}

export async function channelKey(channel: Pick<Channel, "id" | "kdfIterations">): Promise<CryptoKey | null> {
  const password = getChannelPassword(channel.id);
  if (!password) return null;
  return (await channelSecrets(channel.id, password, channel.kdfIterations || PBKDF2_ITERATIONS)).key;
}

// ---- public profiles: usernames and signature keys of senders ----
const profileCache = new Map<string, Promise<{ profile: PublicProfile; verifyKey: CryptoKey } | null>>();

async function fetchProfiles(ids: string[]) {
  const { profiles } = await api<{ profiles: PublicProfile[] }>(`/api/profiles?ids=${ids.map(encodeURIComponent).join(",")}`);
  return new Map(profiles.map((p) => [p.id, p]));
}

async function senderProfiles(ids: string[]) {
  const missing = [...new Set(ids)].filter((id) => !profileCache.has(id));
  for (let i = 0; i < missing.length; i += 100) {
    const chunk = missing.slice(i, i + 100);
    const fetched = fetchProfiles(chunk);
    for (const id of chunk) {
      const entry = fetched.then(async (found) => {
        const profile = found.get(id);
        return profile ? { profile, verifyKey: await importRsaPublicKey(profile.rsaPublicKey) } : null;
      });
      profileCache.set(id, entry);
      entry.catch(() => profileCache.delete(id));
    }
  }
  const out = new Map<string, { profile: PublicProfile; verifyKey: CryptoKey } | null>();
  for (const id of new Set(ids)) out.set(id, await profileCache.get(id)!.catch(() => null));
  return out;
}

// ---- channels ----
export async function createChannel(user: SessionUser | null, name: string, password: string): Promise<string> {
  if (!user) throw new ChatError("User not authenticated");
  const keys = await deviceKeys(user.id);
  if (!keys) throw new ChatError(KEYS_MISSING);
  const id = randomUuid();
  const { verifier } = await channelSecrets(id, password);
  try {
    await api<{ id: string }>("/api/channels", {
      id,
      name: name.trim(),
      verifier,
      ecdhPublicKey: user.ecdhPublicKey,
      kdfIterations: PBKDF2_ITERATIONS,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw new ChatError("User not authenticated");
    throw new ChatError(error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : "Failed to create channel");
  }
  setChannelPassword(id, password);
  return id;
}

export async function joinChannel(user: SessionUser | null, channelId: string, password: string): Promise<{ id: string; name: string }> {
  if (!user || !(await deviceKeys(user.id))) throw new ChatError("Not authenticated");
  const id = channelId.trim().toLowerCase();
  const { verifier } = await channelSecrets(id, password);
  let joined: { id: string; name: string };
  try {
    joined = await api<{ id: string; name: string }>("/api/channels/join", { channelId: id, verifier, ecdhPublicKey: user.ecdhPublicKey });
  } catch (error) {
    if (error instanceof ApiError) {
      if (error.status === 404) throw new ChatError("Channel not found");
      if (error.status === 403) throw new ChatError("Incorrect password");
      if (error.status === 401) throw new ChatError("Not authenticated");
      if (error.status === 400 || error.status === 429) throw new ChatError(error.message);
    }
    throw new ChatError("Failed to join channel");
  }
  setChannelPassword(joined.id, password);
  return joined;
}

/** Joins through an invite: the channel password is recovered from the link's key. */
export async function joinWithInvite(user: SessionUser | null, channelId: string, encryptedPassword: string) {
  let password: string;
  try {
    password = await decryptInvitePassword(channelId, encryptedPassword);
  } catch {
    throw new ChatError("This invite link is damaged or incomplete. Ask for a new one.");
  }
  return joinChannel(user, channelId, password);
}

export async function createShareLink(channelId: string): Promise<string> {
  const password = getChannelPassword(channelId);
  if (!password) throw new ChatError("Cannot create share link: Channel password not found. Please re-join the channel.");
  return buildInviteLink(window.location.origin, channelId, await encryptInvitePassword(channelId, password));
}

export const listChannels = async () => (await api<{ channels: Channel[] }>("/api/channels")).channels;
export const leaveChannel = (id: string) => api(`/api/channels/${id}/leave`, {});
export const deleteChannel = (id: string) => api(`/api/channels/${id}/delete`, {});
export const clearMessages = (id: string) => api<{ deleted: number }>(`/api/channels/${id}/clear`, {});

// ---- messages ----
/** Encrypts, signs and posts one message; an empty text is the carrier of a file or audio message. */
export async function postEnvelope(user: SessionUser, channel: Channel, text: string): Promise<DecryptedMessage> {
  const keys = await deviceKeys(user.id);
  if (!keys) throw new ChatError(KEYS_MISSING);
  const key = await channelKey(channel);
  if (!key) throw new ChatError("Channel password not found");
  const envelope = await encryptMessage({ key, channelId: channel.id, senderId: user.id, plaintext: text, signingKey: keys.rsaPrivateKey });
  const { message } = await api<{ message: EncryptedMessage }>(`/api/channels/${channel.id}/messages`, {
    encryptedContent: envelope,
    senderPublicKey: user.ecdhPublicKey,
  });
  return {
    id: message.id,
    channelId: channel.id,
    senderId: user.id,
    senderUsername: user.username,
    text,
    created: message.created,
    own: true,
    attachments: [],
    previews: [],
  };
}

export async function sendMessage(user: SessionUser, channel: Channel, text: string): Promise<DecryptedMessage> {
  return postEnvelope(user, channel, text);
}

export async function fetchMessages(channelId: string, page: { before?: string; after?: string; limit?: number } = {}) {
  const query = new URLSearchParams();
  if (page.before) query.set("before", page.before);
  if (page.after) query.set("after", page.after);
  query.set("limit", String(page.limit ?? 200));
  return api<{ messages: EncryptedMessage[]; hasMore: boolean }>(`/api/channels/${channelId}/messages?${query}`);
}

/**
 * Verifies and decrypts. A message whose signature or ciphertext does not check out, or whose sender has
 * no profile, is dropped silently (spec §8).
 */
export async function decryptMessages(user: SessionUser, channel: Channel, messages: EncryptedMessage[]): Promise<DecryptedMessage[]> {
  if (messages.length === 0) return [];
  const key = await channelKey(channel);
  if (!key) return [];
  const senders = await senderProfiles(messages.map((m) => m.senderId));
  const results = await Promise.all(
    messages.map(async (m): Promise<DecryptedMessage | null> => {
      const sender = senders.get(m.senderId);
      if (!sender || m.channelId !== channel.id) return null;
      try {
        const text = await decryptMessage({ key, channelId: channel.id, senderId: m.senderId, envelope: m.encryptedContent, verifyKey: sender.verifyKey });
        const [attachments, previews] = await Promise.all([
          decryptAttachments(key, channel.id, m.senderId, m.attachments),
          decryptPreviews(key, channel.id, m.previews),
        ]);
        return {
          id: m.id,
          channelId: m.channelId,
          senderId: m.senderId,
          senderUsername: sender.profile.username,
          text,
          created: m.created,
          own: m.senderId === user.id,
          attachments,
          previews,
        };
      } catch {
        return null;
      }
    }),
  );
  return results.filter((m): m is DecryptedMessage => m !== null);
}
