import { useEffect, useRef } from "react";
import type { OpenAt } from "~/features/search/useSearch.client";

/**
 * Opens the channel at a search result once the channel's first page is there: `jumpTo` loads older
 * history until the message is in the list, scrolls to it and highlights it.
 */
export function useOpenAt(
  openAt: OpenAt | null | undefined,
  channelId: string,
  loadedChannelId: string | undefined,
  jumpTo: (id: string) => unknown,
) {
  const done = useRef<number | null>(null);
  const jump = useRef(jumpTo);
  jump.current = jumpTo;
  useEffect(() => {
    if (!openAt || done.current === openAt.key || openAt.channelId !== channelId || loadedChannelId !== channelId) return;
    done.current = openAt.key;
    void jump.current(openAt.messageId);
  }, [openAt, channelId, loadedChannelId]);
}
