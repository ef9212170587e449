import { useEffect, useRef } from "react";
import { revealMessage } from "~/features/messages/reveal";
import type { OpenAt } from "~/features/search/useSearch.client";
import { afterConversationShown } from "~/features/messages/conversation-shown.client";

interface History {
  /** Whether the open channel's first page has arrived (an empty one too). */
  loaded: boolean;
  find: (id: string) => unknown;
  loadAround: (id: string) => Promise<void>;
}

/**
 * Resolves once an element is on the page and the frame that shows it is over (the message list's own
 * scroll keeping runs in that frame), or after a couple of seconds: the caller reports it missing.
 */
export function rendered(id: string, frames = 120): Promise<void> {
  return new Promise((resolve) => {
    const settled = () => requestAnimationFrame(() => setTimeout(resolve, 0));
    const check = (left: number) => (document.getElementById(id) || left <= 0 ? settled() : requestAnimationFrame(() => check(left - 1)));
    check(frames);
  });
}

/**
 * Opens the channel at a search result once the channel's first page is there: older history back to
 * the message is loaded in one page when needed, then `jumpTo` scrolls to it and highlights it. Whether
 * it is there is decided once the server's first page is shown: what this page kept of the conversation
 * from an earlier visit may hold a message deleted since, which that page's reconciliation removes.
 */
export function useOpenAt(openAt: OpenAt | null | undefined, channelId: string, history: History, jumpTo: (id: string) => unknown) {
  const done = useRef<number | null>(null);
  const current = useRef({ history, jumpTo });
  current.current = { history, jumpTo };
  const loaded = history.loaded;
  useEffect(() => {
    if (!openAt || done.current === openAt.key || openAt.channelId !== channelId || !loaded) return;
    done.current = openAt.key;
    const { history } = current.current;
    void (async () => {
      if (!history.find(openAt.messageId)) await history.loadAround(openAt.messageId).catch(() => undefined);
      revealMessage(openAt.messageId);
      await rendered(`message-${openAt.messageId}`);
      // the list re-rendered in between: the latest jumpTo sees it
      await current.current.jumpTo(openAt.messageId);
      await afterConversationShown();
      if (!current.current.history.find(openAt.messageId)) openAt.missing();
    })();
  }, [openAt, channelId, loaded]);
}
