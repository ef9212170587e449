import { useEffect, useState } from "react";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { savedPosition } from "~/features/messages/reading-position";
import { shownFirst } from "~/features/messages/first-page";

/**
 * A conversation's first frame holds only what is in view (the newest messages, or those from the
 * saved reading position down); the ones above follow right after that frame (the browser keeps what
 * is in view in place as they arrive above it). A list that mounts only the rows in view (`virtual`)
 * is whole at once. Answers whether the list is still partial, and the first message it shows.
 */
export function usePartialFirstFrame(messages: readonly DecryptedMessage[], channelId: string | undefined, virtual: boolean) {
  const [complete, setComplete] = useState<string | undefined>();
  const partial = !virtual && complete !== channelId && messages.length > 0;
  useEffect(() => {
    if (!partial) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setComplete(channelId))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [partial, channelId]);
  const saved = channelId ? savedPosition(channelId) : undefined;
  const savedAt = saved ? messages.findIndex((m) => m.id === saved.messageId) : -1;
  const start = partial ? Math.max(0, Math.min(savedAt < 0 ? messages.length : savedAt, messages.length - shownFirst())) : 0;
  return { partial, start };
}
