import { useLayoutEffect, useRef, type UIEvent } from "react";

const NEAR_BOTTOM_PX = 80;

/**
 * A thread's root and replies scroll in one region (the reply box stays under it): it opens on the
 * newest reply, follows replies that arrive while the reader is at the end, and shows the reader's own
 * reply once sent, as the conversation's list does.
 */
export function useFollowLatest(threadKey: string, replies: readonly { id: string; own: boolean }[], rootShown: boolean) {
  const body = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  const last = replies.at(-1);
  // (another thread opened in the same panel opens on its newest reply too)
  useLayoutEffect(() => {
    atEnd.current = true;
  }, [threadKey]);
  useLayoutEffect(() => {
    const region = body.current;
    if (!region) return;
    if (atEnd.current || last?.own) {
      region.scrollTop = region.scrollHeight;
      atEnd.current = true;
    }
  }, [last?.id, last?.own, rootShown]);
  const followScroll = (event: UIEvent<HTMLDivElement>) => {
    const region = event.currentTarget;
    atEnd.current = region.scrollHeight - region.scrollTop - region.clientHeight < NEAR_BOTTOM_PX;
  };
  return { body, followScroll };
}
