/** What the open conversation's live stream brings to its history (useChannelHistory.client.ts): new messages, files and previews. */
import { useCallback, useRef, type MutableRefObject } from "react";
import { noteMissed } from "~/features/messages/missed-live.client";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import type { Annotation } from "~/conversation/messages/annotations";
import { unionById } from "~/conversation/messages/merge";
import { type DecryptedMessage } from "~/features/messages/messages.client";
import { decryptRecords } from "~/conversation/messages/open.client";
import { rootStandIn } from "~/features/threads/stand-in.client";
import type { EncryptedMessage } from "~/conversation/messages/types";
import { conversationOf } from "~/conversation/conversation.client";
import { decryptAttachments } from "~/conversation/files/decrypt";
import type { EncryptedAttachment } from "~/conversation/files/types";
import { decryptPreviews } from "~/conversation/link-previews/decrypt";
import type { EncryptedPreview } from "~/conversation/link-previews/types";

/**
 * A live file or link preview of a message shown: the change it makes to that message (null: none, already
 * there or not readable). A preview is for the link of the message's first text or of one of its sender's
 * edits (`edits`: their texts).
 */
async function livePart(
  user: SessionUser,
  open: Channel,
  target: DecryptedMessage,
  part: { attachment: EncryptedAttachment } | { preview: EncryptedPreview },
  edits: readonly string[],
): Promise<((m: DecryptedMessage) => DecryptedMessage) | null> {
  const key = await conversationOf(user, open).contentKey(target.itemKey);
  if (!key) return null;
  if ("attachment" in part) {
    if (target.attachments.some((a) => a.id === part.attachment.id)) return null;
    const [attachment] = await decryptAttachments(key, target, [part.attachment]);
    return attachment ? (m) => ({ ...m, attachments: unionById(m.attachments, [attachment]) }) : null;
  }
  if (target.previews.some((p) => p.id === part.preview.id)) return null;
  const found = await Promise.all([target.text, ...edits].map((text) => decryptPreviews(key, { ...target, text }, [part.preview])));
  const [preview] = found.flat();
  return preview ? (m) => ({ ...m, previews: unionById(m.previews, [preview]) }) : null;
}

export interface HistoryState {
  user: SessionUser;
  channelRef: MutableRefObject<Channel | null>;
  messagesRef: MutableRefObject<DecryptedMessage[]>;
  annotationsRef: MutableRefObject<ReadonlyMap<string, Annotation>>;
  /** True while the messages shown are a window back in history. */
  hasNewerRef: MutableRefObject<boolean>;
  /** True while older messages than those shown are still to be paged in. */
  hasMoreRef: MutableRefObject<boolean>;
  add: (forChannel: string, incoming: DecryptedMessage[]) => void;
  annotate: (forChannel: string, incoming: Annotation[]) => void;
  highlight: (arrived: DecryptedMessage[]) => void;
  update: (id: string, change: (m: DecryptedMessage) => DecryptedMessage) => void;
  catchUp: () => Promise<void>;
  /** The earliest live message this page could not open, not yet caught up (missed-live.client.ts). */
  missedSince: MutableRefObject<string | null>;
}

export function useLiveHistory({
  user,
  channelRef,
  messagesRef,
  annotationsRef,
  hasNewerRef,
  hasMoreRef,
  add,
  annotate,
  highlight,
  update,
  catchUp,
  missedSince,
}: HistoryState) {
  /**
   * A reply whose thread's first message is not shown, as it was sent before this device joined: that
   * message stands in for it, where the history shown reaches back to it. (Each first message is asked
   * for once: one further back than the history shown comes with its page.)
   */
  const asked = useRef(new Set<string>());
  const standInFor = useCallback(
    async (open: Channel, rootId: string) => {
      const shown = messagesRef.current;
      if (shown.some((m) => m.id === rootId) || asked.current.has(rootId)) return;
      asked.current.add(rootId);
      const standIn = await rootStandIn(user, open, rootId).catch(() => null);
      const first = messagesRef.current[0];
      if (!standIn || channelRef.current?.id !== open.id) return;
      // (further back than the history shown, while there is more to page in: it comes with its page)
      if (first && first.created > standIn.created && hasMoreRef.current) return;
      add(open.id, [standIn]);
    },
    [user, channelRef, messagesRef, hasMoreRef, add],
  );

  /** A live message of the open channel; answers the decrypted message when it is new here. */
  const receive = useCallback(
    async (message: EncryptedMessage): Promise<DecryptedMessage | null> => {
      const open = channelRef.current;
      if (!open || message.channelId !== open.id || messagesRef.current.some((m) => m.id === message.id)) return null;
      let opened: Awaited<ReturnType<typeof decryptRecords>>;
      try {
        opened = await decryptRecords(user, open, [message]);
      } catch (error) {
        // (asked for again from just before it, rather than dropped: missed-live.client.ts)
        if (channelRef.current?.id === open.id) noteMissed(missedSince, message.created);
        throw error;
      }
      const {
        messages: [decrypted],
        annotations: found,
      } = opened;
      annotate(open.id, found);
      if (!decrypted) {
        // (not opened because its sender's public keys could not be had just now: asked for again)
        if (found.length === 0 && opened.unknownSenders.includes(message.senderId) && channelRef.current?.id === open.id)
          noteMissed(missedSince, message.created);
        return null;
      }
      // A window back in history takes it when the reader pages down to it.
      if (hasNewerRef.current) return decrypted;
      add(open.id, [decrypted]);
      if (!decrypted.threadOnly) highlight([decrypted]);
      if (decrypted.thread) void standInFor(open, decrypted.thread);
      return decrypted;
    },
    [user, channelRef, messagesRef, hasNewerRef, add, annotate, highlight, missedSince, standInFor],
  );

  /** A live file or link preview of a message of the open channel. */
  const receivePart = useCallback(
    async (part: { attachment: EncryptedAttachment } | { preview: EncryptedPreview }) => {
      const open = channelRef.current;
      const messageId = "attachment" in part ? part.attachment.messageId : part.preview.messageId;
      const target = messagesRef.current.find((m) => m.id === messageId);
      if (!open) return;
      // The message itself may still be on its way: fetching what is new brings it with its parts.
      if (!target) return void catchUp();
      const edits = [...annotationsRef.current.values()].flatMap((a) =>
        a.kind === "edit" && a.targetId === messageId && a.senderId === target.senderId && a.text ? [a.text] : [],
      );
      const change = await livePart(user, open, target, part, edits);
      if (change) update(messageId, change);
    },
    [user, channelRef, messagesRef, annotationsRef, catchUp, update],
  );

  return { receive, receivePart };
}
