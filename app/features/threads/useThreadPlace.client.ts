import { useEffect } from "react";
import { backTo, goTo, useAddress } from "~/features/address/address.client";
import { HOME } from "~/features/address/address";
import { narrowNow } from "~/ui/useNarrow.client";
import { onThreadRequest, takeThreadRequest } from "~/features/threads/open.client";

/**
 * The conversation's open thread, the one the address names (ADR 0061): opening and closing it are
 * moves in history, and a thread asked for with the conversation (the Threads list, a search result)
 * replaces its entry. On a phone, closing goes Back to the conversation the thread covered.
 */
export function useThreadPlace(channelId: string) {
  const { place } = useAddress();
  const root = place.conversationId === channelId ? place.thread : null;
  const open = (thread: string | null) => goTo({ ...HOME, conversationId: channelId, thread });
  useEffect(() => {
    const asked = takeThreadRequest(channelId);
    if (asked) goTo({ ...HOME, conversationId: channelId, thread: asked }, { replace: true });
    return onThreadRequest(() => {
      const thread = takeThreadRequest(channelId);
      if (thread) goTo({ ...HOME, conversationId: channelId, thread });
    });
  }, [channelId]);
  const close = () => (narrowNow() ? backTo({ ...HOME, conversationId: channelId }) : open(null));
  return { root, open, close };
}
