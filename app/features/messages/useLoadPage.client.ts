import { useCallback, useRef, type Dispatch, type MutableRefObject, type SetStateAction } from "react";
import { justBefore } from "~/features/messages/missed-live.client";
import { knownWithoutProfile } from "~/conversation/senders/profiles.client";
import { flushSync } from "react-dom";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import type { Annotation } from "~/conversation/messages/annotations";
import { latestCreated } from "~/conversation/messages/merge";
import { channelOnly, isOrphan, mergeMessages } from "~/features/messages/history-parts.client";
import { afterNextFrame, newestFirst } from "~/features/messages/first-page";
import { savedPosition } from "~/features/messages/reading-position";
import { fetchMessages, type DecryptedMessage } from "~/features/messages/messages.client";
import { decryptRecords } from "~/conversation/messages/open.client";
import { reconcileLatest } from "~/conversation/messages/reconcile";
import { LATEST_PAGE_SIZE, takeLatest } from "~/features/messages/latest-prefetch.client";
import { hasReplies, summariesArrived } from "~/features/threads/summaries.client";

const PAGE_SIZE = LATEST_PAGE_SIZE;
const CATCH_UP_SIZE = 500;

export type Page = "latest" | "older" | "after" | "newer";

/** What the open conversation's history holds now (useChannelHistory's refs). */
interface Held {
  channelRef: MutableRefObject<Channel | null>;
  messagesRef: MutableRefObject<DecryptedMessage[]>;
  annotationsRef: MutableRefObject<ReadonlyMap<string, Annotation>>;
  hasMoreRef: MutableRefObject<boolean>;
  /** Grows when another conversation opens or a page is asked for in place of what is shown: an older answer is dropped. */
  generation: MutableRefObject<number>;
  /** Messages this page sent and added itself, not yet in a page from the server: a catch-up does not start after them. */
  sentHere: MutableRefObject<Set<string>>;
  /** The earliest live message the page could not open: a catch-up starts just before it. */
  missedSince: MutableRefObject<string | null>;
}

/** How a page changes what is shown (useChannelHistory's state). */
interface Shows {
  add: (forChannel: string, incoming: DecryptedMessage[]) => void;
  annotate: (forChannel: string, incoming: Annotation[]) => void;
  highlight: (messages: DecryptedMessage[]) => void;
  setMessages: Dispatch<SetStateAction<DecryptedMessage[]>>;
  setAnnotations: (annotations: ReadonlyMap<string, Annotation>) => void;
  setHasMore: (hasMore: boolean) => void;
  setHasNewer: (hasNewer: boolean) => void;
  setLoadedFor: (channelId: string) => void;
}

/**
 * One page of the open conversation (spec §4), through one fetch-decrypt-merge path: the latest page
 * (a first one shown in two steps: the newest, then the rest above them), an older one, what came after
 * the newest shown (a catch-up, highlighted) or the next page of a window back in history.
 */
export function useLoadPage(user: SessionUser, held: Held, shows: Shows) {
  const { channelRef, messagesRef, annotationsRef, hasMoreRef, generation, sentHere, missedSince } = held;
  const { add, annotate, highlight, setMessages, setAnnotations, setHasMore, setHasNewer, setLoadedFor } = shows;
  // The rest of a first page shown in two steps, while it is on its way.
  const restOfFirst = useRef<Promise<void> | null>(null);
  /** One page of the open channel: fetched, verified, decrypted and merged. */
  const loadPage = useCallback(
    async (page: Page, given?: Awaited<ReturnType<typeof fetchMessages>>): Promise<void> => {
      const open = channelRef.current;
      if (!open) return;
      const gen = generation.current;
      const current = messagesRef.current;
      const shown = { messages: new Set(current.map((m) => m.id)), annotations: new Set(annotationsRef.current.keys()) };
      // (a catch-up starts after the newest message the server's pages or live events brought)
      const newest = latestCreated(page === "after" ? current.filter((m) => !sentHere.current.has(m.id)) : current);
      const missed = page === "after" ? missedSince.current : null;
      const since = missed && newest && justBefore(missed) < newest ? justBefore(missed) : newest;
      if (page !== "latest" && page !== "older" && !since) return loadPage("latest");
      const query =
        page === "latest"
          ? { limit: PAGE_SIZE, profiles: current.length === 0 }
          : page === "older"
            ? { before: current[0]?.created, beforeId: current[0]?.id, limit: PAGE_SIZE }
            : { after: since, limit: page === "newer" ? PAGE_SIZE : CATCH_UP_SIZE };
      const early = page === "latest" ? takeLatest(open.id) : null;
      const result = given ?? (await (early ?? fetchMessages(open.id, query)));
      for (const record of result.messages) sentHere.current.delete(record.id);
      summariesArrived(result.threads ?? [], user.id);
      // Nothing shown yet, and no place to go back to: the newest messages are shown first, the rest right after.
      const split = page === "latest" && current.length === 0 && !savedPosition(open.id) ? newestFirst(result.messages) : null;
      // the latest page of a conversation shown from memory: what was decrypted before is not opened again
      const known =
        page === "latest" ? { messages: new Map(current.map((m) => [m.id, m])), annotations: annotationsRef.current } : undefined;
      const {
        messages: decrypted,
        annotations: found,
        unknownSenders,
      } = await decryptRecords(user, open, split?.head ?? result.messages, known, { isThreadRoot: hasReplies });
      if (gen !== generation.current || channelRef.current?.id !== open.id) return;
      if (page === "latest") {
        const fresh = {
          messages: channelOnly(decrypted.filter((m) => !isOrphan(m))),
          annotations: new Map(found.map((a) => [a.id, a])),
          hasMore: result.hasMore || Boolean(split?.older),
        };
        const caughtUp = (messages: readonly DecryptedMessage[]) =>
          reconcileLatest({ messages, annotations: annotationsRef.current, hasMore: hasMoreRef.current }, shown, fresh, mergeMessages);
        const showLatest = () => {
          setMessages((messages) => caughtUp(messages).messages);
          const next = caughtUp(messagesRef.current);
          setAnnotations(next.annotations);
          setHasMore(next.hasMore);
          setLoadedFor(open.id);
        };
        if (!split) return showLatest();
        // The newest are put on the page now (not in a later render), so that the frames waited for
        // next are the one that draws them and the one after it (the reader's first scroll or key is
        // answered before the rest's work); the rest follows, in place above them (as an older page).
        flushSync(showLatest);
        const rest = (async () => {
          await afterNextFrame();
          await afterNextFrame();
          if (gen === generation.current) await loadPage("older", { messages: split.rest, hasMore: result.hasMore });
        })();
        restOfFirst.current = rest;
        try {
          await rest;
        } finally {
          if (restOfFirst.current === rest) restOfFirst.current = null;
        }
        return;
      }
      annotate(open.id, found);
      add(open.id, page === "after" ? decrypted : decrypted.filter((m) => !isOrphan(m)));
      if (page === "newer" || (page === "after" && !result.hasMore)) setHasNewer(result.hasMore);
      if (page === "after") {
        // (the live message missed is in this page now: not asked for again, unless a sender's keys could
        // not be had this time either; a sender known to have none is not waited for)
        if (missed && missedSince.current === missed && unknownSenders.every(knownWithoutProfile)) missedSince.current = null;
        highlight(decrypted.filter((m) => !shown.messages.has(m.id)));
        if (result.hasMore) await loadPage("after");
      } else if (page === "older") setHasMore(result.hasMore);
    },
    [
      user,
      add,
      annotate,
      highlight,
      annotationsRef,
      setAnnotations,
      channelRef,
      generation,
      hasMoreRef,
      sentHere,
      missedSince,
      messagesRef,
      setHasMore,
      setHasNewer,
      setLoadedFor,
      setMessages,
    ],
  );

  return { loadPage, restOfFirst };
}
