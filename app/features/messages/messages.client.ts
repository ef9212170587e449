import { mentionedMembers } from "~/features/push/mentions.client";
import { api } from "~/lib/api.client";
import type { Channel } from "~/conversation/channels/types";
import type { AnnotationKind, EncryptedMessage, MessagePage } from "~/conversation/messages/types";
import { conversationOf } from "~/conversation/conversation.client";
import type { SessionUser } from "~/lib/session-user";
import { encodeBody, type MessageBody } from "~/conversation/messages/body";
import type { DecryptedMessage } from "~/conversation/messages/decrypted";
import { primeProfiles } from "~/conversation/senders/profiles.client";
import { ChatError } from "~/lib/errors";
import { PAYLOAD_TOO_LONG, payloadTooLong } from "~/features/messages/text";

export type { DecryptedMessage } from "~/conversation/messages/decrypted";

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
  const encoded = encodeBody(body);
  if (payloadTooLong(encoded)) throw new ChatError(PAYLOAD_TOO_LONG);
  const message = await conversation.send(encoded, post);
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
