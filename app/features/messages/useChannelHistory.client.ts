import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type SetStateAction } from "react";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { channelOnly, deletedSinceShown, mergeMessages, useAnnotationStore, useHighlights } from "~/features/messages/history-parts.client";
import { useLiveHistory } from "~/features/messages/useLiveHistory.client";
import { useRetryMissed } from "~/features/messages/missed-live.client";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { keepHistory, recallHistory } from "~/conversation/messages/history-cache.client";
import { peekOpenAt, takeOpenAt } from "~/features/messages/open-at.client";
import { conversationOpening } from "~/features/messages/conversation-shown.client";
import { useLoadAround, type AroundPage } from "~/features/messages/useLoadAround.client";
import { useLoadPage } from "~/features/messages/useLoadPage.client";
import { applyAnnotations } from "~/conversation/messages/annotations";
import { ofConversation, withoutRemoved } from "~/conversation/messages/reconcile";

/** How many deleted ids the page remembers (a page answered before their deletion cannot show them again). */
const REMOVED_KEPT = 1_000;

/**
 * The open channel's messages (spec §4): the latest page first, older pages on demand, and what was
 * missed after a reconnect, all through one fetch-decrypt-merge path. Newly arrived messages of others
 * are highlighted for a few seconds (`onArrived` plays the chime).
 */
export function useChannelHistory(user: SessionUser, channel: Channel | null, onArrived: (messages: DecryptedMessage[]) => void) {
  // The channel this render is for, set before the state is read: every change of the list is applied
  // to the conversation of the render that applies it. A change queued while the list was another
  // conversation's (its page answered as the reader switched) was seen applied after the switch, so
  // that conversation's messages stayed in this one's list.
  const channelRef = useRef(channel);
  channelRef.current = channel;
  const [messages, setMessagesOfAny] = useState<DecryptedMessage[]>([]);
  const setMessages = useCallback(
    (change: SetStateAction<DecryptedMessage[]>) =>
      setMessagesOfAny((current) => {
        const next = typeof change === "function" ? change(current) : change;
        return ofConversation(next, channelRef.current?.id) as DecryptedMessage[];
      }),
    [],
  );
  const [hasMore, setHasMore] = useState(false);
  // The messages shown are a window back in history (a jump to an old message): newer ones follow.
  const [hasNewer, setHasNewer] = useState(false);
  const hasNewerRef = useRef(false);
  hasNewerRef.current = hasNewer;
  const [loadingOlder, setLoadingOlder] = useState(false);
  // The channel whose first page has arrived (an empty channel can then say so).
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const generation = useRef(0);
  const { highlighted, highlight } = useHighlights(onArrived);

  /** Adds messages to the open channel (merging, never replacing: a live event may have been faster). */
  const add = useCallback(
    (forChannel: string, incoming: DecryptedMessage[]) => {
      if (channelRef.current?.id !== forChannel || incoming.length === 0) return;
      const inChannel = channelOnly(incoming);
      if (inChannel.length > 0) setMessages((current) => mergeMessages(current, inChannel));
    },
    [setMessages],
  );

  // Where a catch-up starts: not after a message this page sent and added itself, not yet in a page from
  // the server (sent from the outbox before the catch-up, it made it miss what others wrote meanwhile),
  // and not after a live message the page could not open (missed-live.client.ts).
  const sentHere = useRef(new Set<string>());
  const missedSince = useRef<string | null>(null);
  const addSent = useCallback(
    (forChannel: string, sent: DecryptedMessage[]) => {
      for (const m of sent) sentHere.current.add(m.id);
      add(forChannel, sent);
    },
    [add],
  );

  /** Edits and reactions, kept by id whether or not their message is loaded yet. */
  const { annotations, setAnnotations, annotationsRef, annotate, forget } = useAnnotationStore(channelRef);
  const hasMoreRef = useRef(hasMore);
  hasMoreRef.current = hasMore;

  // A conversation opened before in this page shows what it showed then, at once (from memory), in the
  // same render as the click; the latest page then catches it up. Any other starts empty.
  const channelId = channel?.id;
  const show = (id: string | undefined) => {
    // (opened at a message it does not hold: not shown, the page around the message comes instead)
    const at = id ? peekOpenAt(id) : null;
    const kept = id ? recallHistory(user.id, id) : undefined;
    if (at && kept && !kept.messages.some((m) => m.id === at)) return show(undefined);
    setMessages((kept?.messages ?? []) as DecryptedMessage[]);
    setAnnotations(kept?.annotations ?? new Map());
    setHasMore(kept?.hasMore ?? false);
    setHasNewer(false);
    setLoadedFor(kept ? (id ?? null) : null);
  };
  const [shownFor, setShownFor] = useState<string | undefined>();
  if (shownFor !== channelId) {
    setShownFor(channelId);
    show(channelId);
  }
  // Messages, edits and reactions deleted while the page was open (live events), oldest first.
  const removed = useRef(new Set<string>());
  const visible = useMemo(
    () => withoutRemoved(ofConversation(messages, channelId), annotations, removed.current),
    [messages, channelId, annotations],
  );
  // What the conversation shows is kept for coming back (not a window back in history).
  useEffect(() => {
    if (channelId && loadedFor === channelId && !hasNewer)
      keepHistory(user.id, channelId, { messages: visible.messages, annotations: visible.annotations, hasMore });
  }, [user.id, channelId, loadedFor, hasNewer, visible, hasMore]);
  const { loadPage, restOfFirst } = useLoadPage(
    user,
    { channelRef, messagesRef, annotationsRef, hasMoreRef, generation, sentHere, missedSince },
    { add, annotate, highlight, setMessages, setAnnotations, setHasMore, setHasNewer, setLoadedFor },
  );

  // The first page's load in progress (its number, 0 when none), and a catch-up owed after it.
  const firstRun = useRef(0);
  const owed = useRef(false);
  // (and whether that catch-up is one after the live stream was away: deletions are looked for too)
  const owedResync = useRef(false);
  const [owedCatchUps, setOwedCatchUps] = useState(0);

  // Only a change of channel reloads (or `reload`: new keys were accepted, back to the latest from a
  // window back in history); list refreshes keep the same channel id.
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  const reloaded = useRef(reloads);
  // The conversation is opening from this commit on, before any effect of it runs: what its parts read
  // in the background (its call lines and status, the retention policy, its members) waits for its first
  // page (passive effects run children first, so those of the chat pane would start before the load below).
  useLayoutEffect(() => {
    if (channelId) conversationOpening(true);
  }, [channelId, reloads]);
  useEffect(() => {
    generation.current += 1;
    if (reloaded.current !== reloads) show(channelId);
    reloaded.current = reloads;
    if (!channelId) return;
    // Opened at a message (a search result, a link) that is not among those shown from memory: the page
    // around it is the first page (the jump then finds it loaded, or waits for this same request).
    const at = takeOpenAt(channelId);
    const run = ++firstRun.current;
    owed.current = false;
    owedResync.current = false;
    conversationOpening(true);
    const first = at && !messagesRef.current.some((m) => m.id === at) ? startAround(channelId, at) : loadPage("latest");
    first
      .catch((error) => console.warn("Could not load messages", error))
      .finally(() => {
        if (run !== firstRun.current) return;
        firstRun.current = 0;
        conversationOpening(false);
        if (owed.current) setOwedCatchUps((n) => n + 1);
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `show` and `startAround` only set state
  }, [channelId, loadPage, reloads]);

  // A window back in history has nothing to catch up at its end: newer pages load as the reader goes down.
  // Asked for while the first page is on its way (the live stream's sync), it runs once that page is shown.
  // After the live stream was away (`resync`), the latest page's records are read again too: a catch-up
  // after the newest message shown sees what was added, not what was deleted meanwhile (a message, a
  // reaction taken back); what the page shows in that page's range and it no longer has goes.
  /** A deleted message, edit or reaction. */
  const remove = useCallback(
    (id: string) => {
      removed.current.add(id);
      if (removed.current.size > REMOVED_KEPT) removed.current.delete(removed.current.values().next().value!);
      setMessages((current) => current.filter((m) => m.id !== id));
      forget(id);
    },
    [forget, setMessages],
  );

  /** The latest page's records, to remove what the page shows and it no longer has (only ids are read). */
  const removeDeleted = useCallback(async () => {
    const open = channelRef.current;
    if (!open || hasNewerRef.current) return;
    for (const id of await deletedSinceShown(open.id, { messagesRef, annotationsRef }, () => channelRef.current?.id === open.id))
      remove(id);
  }, [annotationsRef, remove]);

  const catchUp = useCallback(
    (resync = false) => {
      if (firstRun.current) {
        owed.current = true;
        owedResync.current ||= resync;
      }
      if (firstRun.current || hasNewerRef.current) return Promise.resolve();
      const forChannel = channelRef.current?.id;
      return loadPage("after")
        .then(() => (resync && channelRef.current?.id === forChannel ? removeDeleted() : undefined))
        .catch((error) => console.warn("Could not fetch missed messages", error));
    },
    [loadPage, removeDeleted],
  );
  useEffect(() => {
    if (owedCatchUps) void catchUp(owedResync.current);
  }, [owedCatchUps, catchUp]);
  useRetryMissed(missedSince, catchUp);

  /** The previous page, or (`newer`) the next one of a window back in history. */
  const loadMore = useCallback(
    async (page: "older" | "newer" = "older") => {
      if (!messagesRef.current.length || loadingOlder) return;
      setLoadingOlder(true);
      try {
        // (asked for while the rest of the first page is on its way: after it, below its oldest)
        await restOfFirst.current?.catch(() => undefined);
        await loadPage(page);
      } catch (error) {
        console.warn(`Could not load ${page} messages`, error);
      } finally {
        setLoadingOlder(false);
      }
    },
    [loadPage, loadingOlder, restOfFirst],
  );

  /** A conversation's first page, around a message; the conversation then counts as loaded. */
  const startAround = async (id: string, messageId: string) => {
    // (gone, or not readable: the latest page, and the jump says the message is not there)
    await loadAround(messageId).catch(() => loadPage("latest"));
    if (channelRef.current?.id === id) setLoadedFor(id);
  };

  const loadAround = useLoadAround(
    user,
    channelRef,
    generation,
    useCallback(
      (open: Channel, page: AroundPage, first: boolean) => {
        if (first) setMessages([]);
        annotate(open.id, page.annotations);
        add(open.id, page.messages);
        setHasMore(page.hasMore);
        setHasNewer(page.hasNewer);
      },
      [add, annotate, setMessages],
    ),
  );

  const update = useCallback(
    (id: string, change: (m: DecryptedMessage) => DecryptedMessage) => {
      setMessages((current) => current.map((m) => (m.id === id ? change(m) : m)));
    },
    [setMessages],
  );

  const { receive, receivePart } = useLiveHistory({
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
  });

  const clear = useCallback(() => {
    setMessages([]);
    setAnnotations(new Map());
  }, [setAnnotations, setMessages]);
  const find = useCallback((id: string) => messagesRef.current.find((m) => m.id === id), []);

  const shown = useMemo(() => applyAnnotations(visible.messages, visible.annotations), [visible]);

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
    /** What was missed while the live stream was away, deletions included. */
    resync: () => catchUp(true),
    receive,
    receivePart,
    add,
    addSent,
    update,
    remove,
    clear,
    find,
    reload,
  };
}
