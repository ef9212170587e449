/**
 * A sealed conversation's messages (loaded with its runtime, not in the first load). What MLS carries
 * for a message is JSON {b, s}: the message body (messages/body.ts) and the sender's identity-key
 * signature over [channel id, sender id, body]. MLS says which device sent it; the signature says
 * which user wrote it, checked against the user's pinned keys like a classic message.
 */
import { signLabelled, verifyLabelled } from "~/crypto";
import { utf8Encode } from "~/crypto/bytes";
import { ApiError } from "~/lib/api.client";
import { deviceKeys } from "~/lib/device-keys.client";
import { ChatError, KeysMissingError } from "~/lib/errors";
import type { EncryptedMessage } from "~/conversation/messages/types";
import type { Opened } from "~/conversation/types";
import { firstHolding, type SenderKey } from "~/conversation/senders/sender-keys.client";
import type { SealedChannel } from "~/conversation/mls/runtime.client";
import { words } from "~/conversation/mls/words";
import { loadRead } from "~/conversation/mls/read-store.client";
import { fetchArchive } from "~/conversation/mls/reading.client";
import { keepForOthers } from "~/conversation/archive/gifts.client";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";

const LABEL = "chatcrypt:sealed-message:v1";
const ATTEMPTS = 5;
const signed = (channelId: string, senderId: string, body: string) => utf8Encode(JSON.stringify([channelId, senderId, body]));

/** Signs and encrypts a body for the channel's current epoch and posts it; after a 409 it catches up and tries again. */
export async function postSealed(
  runtime: SealedChannel,
  body: string,
  post: (content: string, epoch: number) => Promise<EncryptedMessage>,
): Promise<EncryptedMessage> {
  const { user, channel } = runtime;
  const keys = await deviceKeys(user.id);
  if (!keys) throw new KeysMissingError();
  const plaintext = JSON.stringify({ b: body, s: await signLabelled(keys.rsaPrivateKey, LABEL, signed(channel.id, user.id, body)) });
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { content, epoch } = await runtime.seal(plaintext);
    try {
      const message = await post(content, epoch);
      // (for the others of a direct conversation too: ADR 0099)
      void keepForOthers(user.id, channel, runtime.listedOthers, message.id, plaintext).catch((error) =>
        console.warn("A message could not be kept for the conversation's other members", error),
      );
      await runtime.sent(message.id, plaintext);
      return message;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
      await runtime.sync();
    }
  }
  throw new ChatError(words(channel).keysChanging);
}

/**
 * The bodies of these messages that this device can read, each checked against its sender's signature
 * keys (`keysOf`: current first, then earlier ones, ADR 0051); anything else is left out.
 */
export async function openSealed(
  runtime: SealedChannel,
  records: EncryptedMessage[],
  keysOf: (senderId: string) => readonly SenderKey[],
): Promise<Map<string, Opened>> {
  return verified(runtime.channel.id, records, await runtime.openAll(records), keysOf);
}

/** The archive as this page read it, per user and conversation (openKept asks once). */
const archives = new Map<string, Promise<Map<string, string> | null>>();

/**
 * What this device and the user's other devices read of these messages (this device's store, the user's
 * archive: ADR 0048), checked as openSealed checks them: for a conversation whose group this device
 * cannot join now (a participant's new keys not accepted yet: their leaf does not verify), whose
 * history is still the user's to read.
 */
export async function openKept(
  user: SessionUser,
  channel: Channel,
  records: EncryptedMessage[],
  keysOf: (senderId: string) => readonly SenderKey[],
): Promise<Map<string, Opened>> {
  const kept = await loadRead(user.id, channel.id);
  if (records.some((r) => !kept.has(r.id))) {
    const key = `${user.id}:${channel.id}`;
    if (!archives.has(key)) archives.set(key, fetchArchive(user.id, channel.id));
    const archived = await archives.get(key)!;
    if (!archived) archives.delete(key);
    for (const [id, plaintext] of archived ?? []) if (!kept.has(id)) kept.set(id, plaintext);
  }
  return verified(channel.id, records, kept, keysOf);
}

/** Each record's body whose plaintext is known and whose signature holds under one of its sender's keys. */
async function verified(
  channelId: string,
  records: EncryptedMessage[],
  plaintexts: ReadonlyMap<string, string>,
  keysOf: (senderId: string) => readonly SenderKey[],
): Promise<Map<string, Opened>> {
  const out = new Map<string, Opened>();
  await Promise.all(
    records.map(async (record) => {
      const plaintext = plaintexts.get(record.id);
      if (!plaintext) return;
      try {
        const { b, s } = JSON.parse(plaintext) as { b: unknown; s: unknown };
        if (typeof b !== "string" || typeof s !== "string") return;
        const opened = await firstHolding(keysOf(record.senderId), async (key) =>
          (await verifyLabelled(key, LABEL, signed(channelId, record.senderId, b), s)) ? b : null,
        );
        if (opened) out.set(record.id, { body: opened.value, previous: opened.previous });
      } catch {
        // not a sealed message body
      }
    }),
  );
  return out;
}
