/**
 * Opening a conversation's records (the conversation seam, conversation.client.ts, opens each body):
 * messages, edits and reactions verified against their senders' pinned keys and decrypted, with their
 * files' and previews' metadata.
 */
import { shownName } from "~/conversation/senders/words";
import { forgetIfBack } from "~/conversation/senders/profiles.client";
import type { Channel } from "~/conversation/channels/types";
import type { EncryptedMessage } from "~/conversation/messages/types";
import { conversationOf } from "~/conversation/conversation.client";
import { decryptAttachments } from "~/conversation/files/decrypt";
import { decryptPreviews } from "~/conversation/link-previews/decrypt";
import type { SessionUser } from "~/lib/session-user";
import { decodeBody } from "~/conversation/messages/body";
import { toAnnotation, type Annotation } from "~/conversation/messages/annotations";
import type { DecryptedMessage } from "~/conversation/messages/decrypted";
import { compareMessages, unionById } from "~/conversation/messages/merge";
import { afterOpening, sendersOf } from "~/conversation/senders/sender-keys.client";
import { unreadableRoot } from "~/conversation/messages/unreadable";

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
 * (an edit naming another message, a message carrying a reaction) is dropped silently (spec §8); of a
 * sender whose keys differ from the pinned ones, what holds only under the new keys is held back (the
 * channel shows the change) and what holds under a key the user accepted is shown, marked. Records in
 * `known`, of senders still trusted, are taken as they were decrypted before, not opened again. Of the
 * first messages of threads with replies (`isThreadRoot`), one this device cannot read stands in the
 * result for its replies (unreadable.ts).
 */
export async function decryptRecords(
  user: SessionUser,
  channel: Channel,
  all: EncryptedMessage[],
  known?: KnownRecords,
  options: { again?: boolean; isThreadRoot?: (id: string) => boolean } = {},
): Promise<{ messages: DecryptedMessage[]; annotations: Annotation[]; unknownSenders: string[] }> {
  const messages: DecryptedMessage[] = [];
  const annotations: Annotation[] = [];
  if (all.length === 0) return { messages, annotations, unknownSenders: [] };
  const conversation = conversationOf(user, channel);
  forgetIfBack(all);
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
    // (one that could not be read is tried again: the user's archive may have it since)
    if (!message || message.unreadable || !sameParts(message, m)) return false;
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
  if ((await afterOpening(user.id, channel.id, own, opened, found)) && options.again !== false)
    return decryptRecords(user, channel, all, known, { ...options, again: false });
  await Promise.all(
    records.map(async (m) => {
      const sender = senders.get(m.senderId);
      // (a sender whose new keys wait for the user's word: what holds under a key the user accepted shows, marked)
      if (!sender || m.channelId !== channel.id) return;
      try {
        const plaintext = opened.get(m.id);
        if (plaintext === undefined) {
          const standIn = unreadableRoot(
            channel,
            m,
            options.isThreadRoot,
            { id: m.senderId, username: shownName(sender.profile) },
            user.id,
          );
          if (standIn) messages.push(standIn);
          return;
        }
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
  await previewsOfEdits(records, messages, annotations, contentKeyOf);
  // (senders whose profile this page could not have: their records were not opened, a later read may)
  const unknownSenders = [...senders].flatMap(([id, sender]) => (sender ? [] : [id]));
  return { messages: messages.sort(compareMessages), annotations, unknownSenders };
}

/** Messages only (edits and reactions left out), verified and decrypted. */
export async function decryptMessages(user: SessionUser, channel: Channel, records: EncryptedMessage[]): Promise<DecryptedMessage[]> {
  return (await decryptRecords(user, channel, records)).messages;
}

/**
 * A preview for the link an edit brought (its sender's edit among these annotations): decrypted against
 * the edit's words, as the first text's are against that. Which of them shows is the latest text's
 * (applyAnnotations).
 */
async function previewsOfEdits(
  records: EncryptedMessage[],
  messages: DecryptedMessage[],
  annotations: readonly Annotation[],
  contentKeyOf: (itemKey: string | undefined) => Promise<CryptoKey | null>,
) {
  const byId = new Map(records.map((r) => [r.id, r]));
  for (const [i, m] of messages.entries()) {
    const previews = byId.get(m.id)?.previews ?? [];
    const shown = new Set(m.previews.map((p) => p.id));
    const others = previews.filter((p) => !shown.has(p.id));
    const edits = annotations.filter((a) => a.kind === "edit" && a.targetId === m.id && a.senderId === m.senderId && a.text);
    if (others.length === 0 || edits.length === 0) continue;
    const key = await contentKeyOf(m.itemKey);
    if (!key) continue;
    const found = await Promise.all(edits.map((edit) => decryptPreviews(key, { ...m, text: edit.text! }, others)));
    messages[i] = { ...m, previews: unionById(m.previews, found.flat()) };
  }
}
