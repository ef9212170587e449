import { useEffect, useRef } from "react";
import type { LiveEvent } from "~/chat-types";

/**
 * Subscribes to the page's live stream (server-sent events). The browser reconnects by itself after a
 * drop; each (re)connection starts with a "sync" event so the page can fetch what it missed.
 */
export function useLiveEvents(channelId: string | null, onEvent: (event: LiveEvent) => void) {
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    const source = new EventSource(`/api/events${channelId ? `?channel=${encodeURIComponent(channelId)}` : ""}`);
    source.onmessage = (message) => {
      try {
        handler.current(JSON.parse(message.data) as LiveEvent);
      } catch (error) {
        console.warn("Ignoring a malformed live event", error);
      }
    };
    return () => source.close();
  }, [channelId]);
}
