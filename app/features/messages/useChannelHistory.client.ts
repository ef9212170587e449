import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/features/channels/types";
import { latestCreated, mergeMessages as mergeOrdered, unionById } from "~/features/messages/merge";
import { decryptRecords, fetchMessages, type DecryptedMessage } from "~/features/messages/messages.client";
import { applyAnnotations, type Annotation } from "~/features/messages/annotations";
import { onSentElsewhere } from "~/features/messages/sent-elsewhere.client";
import { replyArrived, rootsArrived, summariesArrived } from "~/features/threads/summaries.client";
import type { EncryptedMessage } from "~/features/messages/types";
import { conversationOf } from "~/features/conversation/conversation.client";
import { decryptAttachments } from "~/features/files/decrypt";
import type { EncryptedAttachment } from "~/features/files/types";
import { decryptPreviews } from "~/features/link-previews/decrypt";
import type { EncryptedPreview } from "~/features/link-previews/types";

const PAGE_SIZE = 200;
const CATCH_UP_SIZE = 500;
const HIGHLIGHT_MS = 6_000;
const ORPHAN_AFTER_MS = 60_000;

/** Two copies of one message (live event, send result, catch-up) keep every attachment and preview either has. */
export const mergeMessages = (current: readonly DecryptedMessage[], incoming: readonly DecryptedMessage[]) =>
  mergeOrdered(current, incoming, (a, b) => ({
    ...b,
    attachments: unionById(a.attachments, b.attachments),
    previews: unionById(a.previews, b.previews),
  }));

/** A file message whose upload never completed carries no text and no attachment: it is not shown. */
const isOrphan = (m: DecryptedMessage) =>
  !m.text && m.attachments.length === 0 && Date.now() - new Date(m.created.replace(" ", "T")).getTime() > ORPHAN_AFTER_MS;

type Page = "latest" | "older" | "after" | "newer";

/**
 * The open channel's messages (spec §4): the latest page first, older pages on demand, and what was
 * missed after a reconnect, all through one fetch-decrypt-merge path. Newly arrived messages of others
 * are highlighted for a few seconds (`onArrived` plays the chime).
 */
export function useChannelHistory(user: SessionUser, channel: Channel | null, onArrived: (messages: DecryptedMessage[]) => void) {
  const [messages, setMessages] = useState<DecryptedMessage[]>([]);
  const [hasMore, setHasMore] = useState(false);
  // The messages shown are a window back in history (a jump to an old message): newer ones follow.
  const [hasNewer, setHasNewer] = useState(false);
  const hasNewerRef = useRef(false);
  hasNewerRef.current = hasNewer;
  const [loadingOlder, setLoadingOlder] = useState(false);
  // The channel whose first page has arrived (an empty channel can then say so).
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const channelRef = useRef(channel);
  channelRef.current = channel;
  const generation = useRef(0);
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

  /** Adds messages to the open channel (merging, never replacing: a live event may have been faster). */
  const add = useCallback((forChannel: string, incoming: DecryptedMessage[]) => {
    if (channelRef.current?.id !== forChannel || incoming.length === 0) return;
    // replies in a thread go to their thread (and count under its root); only some are in the channel too
    for (const m of incoming) if (m.thread) replyArrived(m);
    const inChannel = incoming.filter((m) => !m.threadOnly);
    rootsArrived(inChannel);
    if (inChannel.length > 0) setMessages((current) => mergeMessages(current, inChannel));
  }, []);

  useEffect(() => onSentElsewhere((message) => add(message.channelId, [message])), [add]);

  /** Edits and reactions, kept by id whether or not their message is loaded yet. */
  const [annotations, setAnnotations] = useState<ReadonlyMap<string, Annotation>>(new Map());
  const annotate = useCallback((forChannel: string, incoming: Annotation[]) => {
    if (channelRef.current?.id !== forChannel || incoming.length === 0) return;
    setAnnotations((current) => {
      const next = new Map(current);
      for (const a of incoming) next.set(a.id, a);
      return next;
    });
  }, []);

  /** One page of the open channel: fetched, verified, decrypted and merged. */
  const loadPage = useCallback(
    async (page: Page): Promise<void> => {
      const open = channelRef.current;
      if (!open) return;
      const gen = generation.current;
      const current = messagesRef.current;
      const since = latestCreated(current);
      if (page !== "latest" && page !== "older" && !since) return loadPage("latest");
      const query =
        page === "latest"
          ? { limit: PAGE_SIZE }
          : page === "older"
            ? { before: current[0]?.created, limit: PAGE_SIZE }
            : { after: since, limit: page === "newer" ? PAGE_SIZE : CATCH_UP_SIZE };
      const result = await fetchMessages(open.id, query);
      summariesArrived(result.threads ?? [], user.id);
      const { messages: decrypted, annotations: found } = await decryptRecords(user, open, result.messages);
      if (gen !== generation.current) return;
      annotate(open.id, found);
      const known = new Set(current.map((m) => m.id));
      add(open.id, page === "after" ? decrypted : decrypted.filter((m) => !isOrphan(m)));
      if (page === "newer" || (page === "after" && !result.hasMore)) setHasNewer(result.hasMore);
      if (page === "after") {
        highlight(decrypted.filter((m) => !known.has(m.id)));
        if (result.hasMore) await loadPage("after");
      } else if (page !== "newer") {
        setHasMore(result.hasMore);
        if (page === "latest") setLoadedFor(open.id);
      }
    },
    [user, add, annotate, highlight],
  );

  // Only a change of channel reloads (or `reload`, after new keys were accepted); list refreshes keep the same channel id.
  const channelId = channel?.id;
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  useEffect(() => {
    generation.current += 1;
    setMessages([]);
    setAnnotations(new Map());
    setHasMore(false);
    setHasNewer(false);
    if (channelId) loadPage("latest").catch((error) => console.warn("Could not load messages", error));
  }, [channelId, loadPage, reloads]);

  // A window back in history has nothing to catch up at its end: newer pages load as the reader goes down.
  const catchUp = useCallback(
    () =>
      hasNewerRef.current ? Promise.resolve() : loadPage("after").catch((error) => console.warn("Could not fetch missed messages", error)),
    [loadPage],
  );

  /** The previous page, or (`newer`) the next one of a window back in history. */
  const loadMore = useCallback(
    async (page: "older" | "newer" = "older") => {
      if (!messagesRef.current.length || loadingOlder) return;
      setLoadingOlder(true);
      try {
        await loadPage(page);
      } catch (error) {
        console.warn(`Could not load ${page} messages`, error);
      } finally {
        setLoadingOlder(false);
      }
    },
    [loadPage, loadingOlder],
  );

  /** Shows the page around a message not loaded (a jump to it): one request wherever it is in history. */
  const loadAround = useCallback(
    async (id: string) => {
      const open = channelRef.current;
      if (!open) return;
      const gen = ++generation.current;
      const result = await fetchMessages(open.id, { around: id, limit: PAGE_SIZE });
      summariesArrived(result.threads ?? [], user.id);
      const { messages: decrypted, annotations: found } = await decryptRecords(user, open, result.messages);
      if (gen !== generation.current) return;
      setMessages([]);
      annotate(open.id, found);
      add(
        open.id,
        decrypted.filter((m) => !isOrphan(m)),
      );
      setHasMore(result.hasMore);
      setHasNewer(Boolean(result.hasNewer));
    },
    [user, add, annotate],
  );

  const update = useCallback((id: string, change: (m: DecryptedMessage) => DecryptedMessage) => {
    setMessages((current) => current.map((m) => (m.id === id ? change(m) : m)));
  }, []);

  /** A live message of the open channel; answers the decrypted message when it is new here. */
  const receive = useCallback(
    async (message: EncryptedMessage): Promise<DecryptedMessage | null> => {
      const open = channelRef.current;
      if (!open || message.channelId !== open.id || messagesRef.current.some((m) => m.id === message.id)) return null;
      const {
        messages: [decrypted],
        annotations: found,
      } = await decryptRecords(user, open, [message]);
      annotate(open.id, found);
      if (!decrypted) return null;
      // A window back in history takes it when the reader pages down to it.
      if (hasNewerRef.current) return decrypted;
      add(open.id, [decrypted]);
      if (!decrypted.threadOnly) highlight([decrypted]);
      return decrypted;
    },
    [user, add, annotate, highlight],
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
      const key = await conversationOf(user, open).contentKey(target.itemKey);
      if (!key) return;
      if ("attachment" in part) {
        if (target.attachments.some((a) => a.id === part.attachment.id)) return;
        const [attachment] = await decryptAttachments(key, target, [part.attachment]);
        if (attachment) update(messageId, (m) => ({ ...m, attachments: unionById(m.attachments, [attachment]) }));
      } else {
        if (target.previews.some((p) => p.id === part.preview.id)) return;
        const [preview] = await decryptPreviews(key, target, [part.preview]);
        if (preview) update(messageId, (m) => ({ ...m, previews: unionById(m.previews, [preview]) }));
      }
    },
    [user, catchUp, update],
  );

  /** A deleted message, edit or reaction. */
  const remove = useCallback((id: string) => {
    setMessages((current) => current.filter((m) => m.id !== id));
    setAnnotations((current) => {
      if (!current.has(id)) return current;
      const next = new Map(current);
      next.delete(id);
      return next;
    });
  }, []);
  const clear = useCallback(() => {
    setMessages([]);
    setAnnotations(new Map());
  }, []);
  const find = useCallback((id: string) => messagesRef.current.find((m) => m.id === id), []);

  const shown = useMemo(() => applyAnnotations(messages, annotations), [messages, annotations]);

  return {
    messages: shown,
    loaded: Boolean(channelId) && loadedFor === channelId,
    annotate,
    hasMore,
    hasNewer,
    loadingOlder,
    highlighted,
    loadOlder: () => loadMore("older"),
    loadNewer: () => loadMore("newer"),
    loadAround,
    catchUp,
    receive,
    receivePart,
    add,
    update,
    remove,
    clear,
    find,
    reload,
  };
}
