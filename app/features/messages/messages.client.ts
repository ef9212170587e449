import { shownName } from "~/features/deactivation/words";
import { mentionedMembers } from "~/features/push/mentions.client";
import { api } from "~/lib/api.client";
import type { Channel } from "~/features/channels/types";
import type { AnnotationKind, EncryptedMessage, MessagePage } from "~/features/messages/types";
import { conversationOf } from "~/features/conversation/conversation.client";
import { decryptAttachments } from "~/features/files/decrypt";
import { decryptPreviews } from "~/features/link-previews/decrypt";
import type { SessionUser } from "~/lib/session-user";
import { decodeBody, encodeBody, type MessageBody } from "~/features/messages/body";
import { toAnnotation, type Annotation } from "~/features/messages/annotations";
import type { DecryptedMessage } from "~/features/messages/decrypted";
import { compareMessages } from "~/features/messages/merge";
import { primeProfiles } from "~/features/key-pins/profiles.client";
import { afterOpening, sendersOf } from "~/features/key-pins/sender-keys.client";

export type { DecryptedMessage } from "~/features/messages/decrypted";

// ---- messages ----
/** Encrypts, signs and posts one message (or an edit or a reaction, naming its target); an empty text is the carrier of a file or audio message. */
export async function postEnvelope(
  user: SessionUser,
  channel: Channel,
  body: MessageBody,
  annotation?: { kind: AnnotationKind; targetId: string } | { kind?: "reply"; thread: string },
  clientId?: string,
): Promise<DecryptedMessage> {
  const mentions = annotation && "targetId" in annotation ? [] : await mentionedMembers(channel.id, user.id, body.text);
  const fields = {
    senderPublicKey: user.ecdhPublicKey,
    ...(annotation ?? {}),
    ...(clientId ? { clientId } : {}),
    ...(mentions.length ? { mentions } : {}),
  };
  const post = (encryptedContent: string, epoch?: number) =>
    api<{ message: EncryptedMessage }>(`/api/channels/${channel.id}/messages`, {
      encryptedContent,
      ...fields,
      ...(epoch === undefined ? {} : { epoch }),
    }).then((r) => r.message);
  const conversation = conversationOf(user, channel);
  // Where each message has its own key for what it carries (files, previews), the body names it.
  const key = body.key ?? (await conversation.newItemKey());
  if (key) body = { ...body, key };
  const message = await conversation.send(encodeBody(body), post);
  return {
    id: message.id,
    channelId: channel.id,
    senderId: user.id,
    senderUsername: user.username,
    text: body.text,
    created: message.created,
    own: true,
    fileHashes: body.files,
    ...(body.replyTo ? { replyTo: body.replyTo } : {}),
    ...(body.thread ? { thread: body.thread, threadOnly: annotation?.kind === "reply" } : {}),
    ...(body.key ? { itemKey: body.key } : {}),
    attachments: [],
    previews: [],
  };
}

/** The message that carries a file: its caption (or an empty text) and the file's SHA-256, encrypted and signed. */
export const postFileCarrier =
  (user: SessionUser) =>
  (channel: Channel, fileHash: string, itemKey?: string, caption = "") =>
    postEnvelope(user, channel, { text: caption, files: [fileHash], ...(itemKey ? { key: itemKey } : {}) });

export async function sendMessage(
  user: SessionUser,
  channel: Channel,
  text: string,
  replyTo?: string,
  clientId?: string,
  thread?: { root: string; alsoInChannel: boolean },
): Promise<DecryptedMessage> {
  const body = { text, files: [], ...(replyTo ? { replyTo } : {}), ...(thread ? { thread: thread.root } : {}) };
  const where = thread ? { thread: thread.root, ...(thread.alsoInChannel ? {} : { kind: "reply" as const }) } : undefined;
  return postEnvelope(user, channel, body, where, clientId);
}

/**
 * One page of a channel's messages. With `profiles` (a conversation's first page), the answer names
 * its senders' public keys, kept for verifying them as if asked for (senderProfiles).
 */
export async function fetchMessages(
  channelId: string,
  page: { before?: string; beforeId?: string; after?: string; around?: string; limit?: number; count?: boolean; profiles?: boolean } = {},
) {
  const query = new URLSearchParams();
  if (page.around) query.set("around", page.around);
  if (page.before) query.set("before", page.before);
  if (page.before && page.beforeId) query.set("beforeId", page.beforeId);
  if (page.after) query.set("after", page.after);
  query.set("limit", String(page.limit ?? 200));
  if (page.count) query.set("count", "1");
  if (page.profiles) query.set("profiles", "1");
  const result = await api<MessagePage>(`/api/channels/${channelId}/messages?${query}`);
  if (result.profiles) primeProfiles(result.profiles);
  return result;
}

/** Messages, edits and reactions this page verified and decrypted before (a conversation shown from memory). */
export interface KnownRecords {
  messages: ReadonlyMap<string, DecryptedMessage>;
  annotations: ReadonlyMap<string, Annotation>;
}

const partIds = (parts: readonly { id: string }[] | undefined) =>
  (parts ?? [])
    .map((p) => p.id)
    .sort()
    .join();
/** The record is the message as it was decrypted: the same files and previews (records do not change otherwise). */
const sameParts = (known: DecryptedMessage, record: EncryptedMessage) =>
  partIds(known.attachments) === partIds(record.attachments) && partIds(known.previews) === partIds(record.previews);

/**
 * Verifies and decrypts messages, edits and reactions. Anything whose signature or ciphertext does not
 * check out, whose sender has no profile, or whose signed body does not match what the record claims
 * (an edit naming another message, a message carrying a reaction) is dropped silently (spec §8); messages of
 * senders whose keys differ from the pinned ones are held back (the channel shows the change). Records in
 * `known`, of senders still trusted, are taken as they were decrypted before, not opened again.
 */
export async function decryptRecords(
  user: SessionUser,
  channel: Channel,
  all: EncryptedMessage[],
  known?: KnownRecords,
  again = true,
): Promise<{ messages: DecryptedMessage[]; annotations: Annotation[] }> {
  const messages: DecryptedMessage[] = [];
  const annotations: Annotation[] = [];
  if (all.length === 0) return { messages, annotations };
  const conversation = conversationOf(user, channel);
  const found = await sendersOf(
    user.id,
    all.map((m) => m.senderId),
    channel.id,
  );
  const { trusted, profiles: senders } = found;
  const reused = (m: EncryptedMessage) => {
    // (a sender with earlier keys is opened again: which key signed each message is shown)
    if (!known || m.channelId !== channel.id || !trusted.has(m.senderId) || found.keysOf(m.senderId).length > 1) return false;
    const annotation = known.annotations.get(m.id);
    if (annotation) {
      annotations.push(annotation);
      return true;
    }
    const message = known.messages.get(m.id);
    if (!message || !sameParts(message, m)) return false;
    messages.push(message);
    return true;
  };
  const records = all.filter((m) => !reused(m));
  // (asked once per item key: a classic channel's one key comes from this device's storage)
  const contentKeys = new Map<string | undefined, Promise<CryptoKey | null>>();
  const contentKeyOf = (itemKey: string | undefined) => {
    if (!contentKeys.has(itemKey)) contentKeys.set(itemKey, conversation.contentKey(itemKey));
    return contentKeys.get(itemKey)!;
  };
  const own = records.filter((m) => m.channelId === channel.id);
  const opened = await conversation.open(own, found.keysOf);
  // A sender's keys changed since this page fetched them: opened again with what the server presents now (once).
  if ((await afterOpening(user.id, channel.id, own, opened, found)) && again) return decryptRecords(user, channel, all, known, false);
  await Promise.all(
    records.map(async (m) => {
      const sender = senders.get(m.senderId);
      if (!sender || m.channelId !== channel.id || !trusted.has(m.senderId)) return;
      try {
        const plaintext = opened.get(m.id);
        if (plaintext === undefined) return;
        const body = decodeBody(plaintext.body);
        if (m.kind && m.kind !== "reply") {
          const annotation = m.targetId
            ? toAnnotation(
                { id: m.id, kind: m.kind, targetId: m.targetId, senderId: m.senderId, created: m.created },
                body,
                m.senderId === user.id,
              )
            : null;
          if (annotation) annotations.push({ ...annotation, senderUsername: shownName(sender.profile) });
          return;
        }
        // a reply's thread is the one inside its signed body (the server cannot move it to another)
        if (body.edits || body.reactsTo || body.pins || body.thread !== m.thread) return;
        const itemKey = body.key ?? plaintext.keyRef;
        const partsKey = await contentKeyOf(itemKey);
        const carrier = {
          id: m.id,
          channelId: channel.id,
          senderId: m.senderId,
          fileHashes: body.files,
          text: body.text,
          itemKey,
        };
        const [attachments, previews] = partsKey
          ? await Promise.all([decryptAttachments(partsKey, carrier, m.attachments), decryptPreviews(partsKey, carrier, m.previews)])
          : [[], []];
        messages.push({
          id: m.id,
          channelId: m.channelId,
          senderId: m.senderId,
          senderUsername: shownName(sender.profile),
          text: body.text,
          created: m.created,
          own: m.senderId === user.id,
          fileHashes: body.files,
          ...(body.replyTo ? { replyTo: body.replyTo } : {}),
          ...(body.thread ? { thread: body.thread, threadOnly: m.kind === "reply" } : {}),
          ...(itemKey ? { itemKey } : {}),
          ...(plaintext.previous ? { previousKey: true as const } : {}),
          attachments,
          previews,
        });
      } catch {
        // dropped: not verifiable or not decryptable
      }
    }),
  );
  return { messages: messages.sort(compareMessages), annotations };
}

/** Messages only (edits and reactions left out), verified and decrypted. */
export async function decryptMessages(user: SessionUser, channel: Channel, records: EncryptedMessage[]): Promise<DecryptedMessage[]> {
  return (await decryptRecords(user, channel, records)).messages;
}
