import { decryptMessage, encryptMessage, importRsaPublicKey } from "~/crypto";
import { api } from "~/lib/api.client";
import { ChatError, KeysMissingError } from "~/lib/errors";
import type { Channel } from "~/features/channels/types";
import type { EncryptedMessage, PublicProfile } from "~/features/messages/types";
import { channelKey } from "~/features/channels/channels.client";
import { decryptAttachments, type DecryptedAttachment } from "~/features/files/decrypt";
import { decryptPreviews, type DecryptedPreview } from "~/features/link-previews/decrypt";
import { deviceKeys } from "~/lib/device-keys.client";
import type { SessionUser } from "~/lib/session-user";
import { decodeBody, encodeBody, type MessageBody } from "~/features/messages/body";

export interface DecryptedMessage {
  id: string;
  channelId: string;
  senderId: string;
  senderUsername: string;
  text: string;
  created: string;
  own: boolean;
  /** Fingerprints of the files this message carries, from its signed payload. */
  fileHashes: string[];
  attachments: DecryptedAttachment[];
  previews: DecryptedPreview[];
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

// ---- messages ----
/** Encrypts, signs and posts one message; an empty text is the carrier of a file or audio message. */
export async function postEnvelope(user: SessionUser, channel: Channel, body: MessageBody): Promise<DecryptedMessage> {
  const keys = await deviceKeys(user.id);
  if (!keys) throw new KeysMissingError();
  const key = await channelKey(channel);
  if (!key) throw new ChatError("Channel password not found");
  const envelope = await encryptMessage({ key, channelId: channel.id, senderId: user.id, plaintext: encodeBody(body), signingKey: keys.rsaPrivateKey });
  const { message } = await api<{ message: EncryptedMessage }>(`/api/channels/${channel.id}/messages`, {
    encryptedContent: envelope,
    senderPublicKey: user.ecdhPublicKey,
  });
  return {
    id: message.id,
    channelId: channel.id,
    senderId: user.id,
    senderUsername: user.username,
    text: body.text,
    created: message.created,
    own: true,
    fileHashes: body.files,
    attachments: [],
    previews: [],
  };
}

/** The message that carries a file: an empty text and the file's SHA-256, signed. */
export const postFileCarrier = (user: SessionUser) => (channel: Channel, fileHash: string) => postEnvelope(user, channel, { text: "", files: [fileHash] });

export async function sendMessage(user: SessionUser, channel: Channel, text: string): Promise<DecryptedMessage> {
  return postEnvelope(user, channel, { text, files: [] });
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
        const plaintext = await decryptMessage({ key, channelId: channel.id, senderId: m.senderId, envelope: m.encryptedContent, verifyKey: sender.verifyKey });
        const { text, files } = decodeBody(plaintext);
        const [attachments, previews] = await Promise.all([
          decryptAttachments(key, { id: m.id, channelId: channel.id, senderId: m.senderId, fileHashes: files }, m.attachments),
          decryptPreviews(key, { id: m.id, channelId: channel.id, text }, m.previews),
        ]);
        return {
          id: m.id,
          channelId: m.channelId,
          senderId: m.senderId,
          senderUsername: sender.profile.username,
          text,
          created: m.created,
          own: m.senderId === user.id,
          fileHashes: files,
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
