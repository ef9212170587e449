import { useEffect, useRef, useState } from "react";
import type { LiveEvent } from "~/features/live/types";

/**
 * Subscribes to the page's live stream (server-sent events). The browser reconnects by itself after a
 * drop; each (re)connection starts with a "sync" event so the page can fetch what it missed.
 */
export function useLiveEvents(channelId: string | null, onEvent: (event: LiveEvent) => void): { live: boolean } {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const [live, setLive] = useState(false);

  useEffect(() => {
    setLive(false);
    const source = new EventSource(`/api/events${channelId ? `?channel=${encodeURIComponent(channelId)}` : ""}`);
    source.onmessage = (message) => {
      let event: LiveEvent;
      try {
        event = JSON.parse(message.data) as LiveEvent;
      } catch (error) {
        console.warn("Ignoring a malformed live event", error);
        return;
      }
      if (event.type === "sync") setLive(true);
      handler.current(event);
    };
    source.onerror = () => setLive(false);
    return () => source.close();
  }, [channelId]);

  return { live };
}
