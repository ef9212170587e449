/** Pieces of the open conversation's history (useChannelHistory.client.ts): merging, filtering, highlighting. */
import { useCallback, useRef, useState, type MutableRefObject } from "react";
import type { Annotation } from "~/conversation/messages/annotations";
import { mergeMessages as mergeOrdered, unionById } from "~/conversation/messages/merge";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { replyArrived, rootsArrived } from "~/features/threads/summaries.client";
import type { Channel } from "~/conversation/channels/types";
import { deletedMeanwhile } from "~/conversation/messages/reconcile";
import { fetchMessages } from "~/features/messages/messages.client";
import { LATEST_PAGE_SIZE } from "~/features/messages/latest-prefetch.client";

const HIGHLIGHT_MS = 6_000;
const ORPHAN_AFTER_MS = 60_000;

/** Two copies of one message (live event, send result, catch-up) keep every attachment and preview either has. */
export const mergeMessages = (current: readonly DecryptedMessage[], incoming: readonly DecryptedMessage[]) =>
  mergeOrdered(current, incoming, (a, b) => ({
    ...b,
    attachments: unionById(a.attachments, b.attachments),
    previews: unionById(a.previews, b.previews),
  }));

/** Replies in a thread go to their thread (and count under its root); answers those shown in the channel too. */
export function channelOnly(incoming: DecryptedMessage[]) {
  for (const m of incoming) if (m.thread) replyArrived(m);
  const inChannel = incoming.filter((m) => !m.threadOnly);
  rootsArrived(inChannel);
  return inChannel;
}

/** A file message whose upload never completed carries no text and no attachment: it is not shown. */
export const isOrphan = (m: DecryptedMessage) =>
  !m.unreadable && !m.text && m.attachments.length === 0 && Date.now() - new Date(m.created.replace(" ", "T")).getTime() > ORPHAN_AFTER_MS;

/** Newly arrived messages of others, highlighted for a few seconds (`onArrived` plays the chime). */
export function useHighlights(onArrived: (messages: DecryptedMessage[]) => void) {
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  const arrivedRef = useRef(onArrived);
  arrivedRef.current = onArrived;
  const highlight = useCallback((arrived: DecryptedMessage[]) => {
    const ids = arrived.filter((m) => !m.own).map((m) => m.id);
    if (ids.length === 0) return;
    arrivedRef.current(arrived.filter((m) => !m.own));
    setHighlighted((prev) => new Set([...prev, ...ids]));
    setTimeout(() => {
      setHighlighted((prev) => {
        const next = new Set(prev);
        for (const id of ids) next.delete(id);
        return next;
      });
    }, HIGHLIGHT_MS);
  }, []);
  return { highlighted, highlight };
}

/** Edits and reactions of the open conversation, kept by id whether or not their message is loaded yet. */
export function useAnnotationStore(channelRef: MutableRefObject<Channel | null>) {
  const [annotations, setAnnotations] = useState<ReadonlyMap<string, Annotation>>(new Map());
  const annotationsRef = useRef(annotations);
  annotationsRef.current = annotations;
  /** Adds them when they are of the conversation still open. */
  const annotate = useCallback(
    (forChannel: string, incoming: Annotation[]) => {
      if (channelRef.current?.id !== forChannel || incoming.length === 0) return;
      setAnnotations((current) => {
        const next = new Map(current);
        for (const a of incoming) next.set(a.id, a);
        return next;
      });
    },
    [channelRef],
  );
  const forget = useCallback((id: string) => {
    setAnnotations((current) => {
      if (!current.has(id)) return current;
      const next = new Map(current);
      next.delete(id);
      return next;
    });
  }, []);
  return { annotations, setAnnotations, annotationsRef, annotate, forget };
}

/**
 * What the open conversation shows that its latest page no longer has (deleted meanwhile: a message, a
 * reaction taken back), read from that page's records (only their ids); none once `stillOpen` is false.
 */
export async function deletedSinceShown(
  channelId: string,
  shown: { messagesRef: MutableRefObject<DecryptedMessage[]>; annotationsRef: MutableRefObject<ReadonlyMap<string, Annotation>> },
  stillOpen: () => boolean,
): Promise<string[]> {
  const { messagesRef, annotationsRef } = shown;
  const before = { messages: new Set(messagesRef.current.map((m) => m.id)), annotations: new Set(annotationsRef.current.keys()) };
  const page = await fetchMessages(channelId, { limit: LATEST_PAGE_SIZE });
  if (!stillOpen()) return [];
  const shownNow = { messages: messagesRef.current, annotations: annotationsRef.current };
  return deletedMeanwhile(channelId, shownNow, before, { records: page.messages, hasMore: page.hasMore });
}
