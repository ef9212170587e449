import { useEffect, useRef, useState } from "react";
import { listDevices } from "~/features/devices/devices.client";
import type { LiveEvent } from "~/features/live/types";

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/**
 * Subscribes to the page's live stream (server-sent events). The browser reconnects by itself after a
 * drop; each (re)connection starts with a "sync" event so the page can fetch what it missed. A stream
 * whose session was signed out ("signed-out", then the stream ends) or that the server refused outright
 * (the browser then stops) is checked: when the session ended the page is told so (api.client.ts),
 * otherwise the stream opens again, later each time.
 */
export function useLiveEvents(channelId: string | null, onEvent: (event: LiveEvent) => void): { live: boolean } {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const [live, setLive] = useState(false);

  useEffect(() => {
    setLive(false);
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = FIRST_RETRY_MS;
    let stopped = false;
    const reopen = (after = delay) => {
      retry = setTimeout(() => {
        // listDevices asks PocketBase afresh: a 401 there signs the page out
        listDevices().then(
          () => !stopped && open(),
          () => !stopped && reopen(),
        );
      }, after);
      delay = Math.min(delay * 2, MAX_RETRY_MS);
    };
    const open = () => {
      source = new EventSource(`/api/events${channelId ? `?channel=${encodeURIComponent(channelId)}` : ""}`);
      source.onmessage = (message) => {
        let event: LiveEvent;
        try {
          event = JSON.parse(message.data) as LiveEvent;
        } catch (error) {
          console.warn("Ignoring a malformed live event", error);
          return;
        }
        if (event.type === "signed-out") {
          // signed out elsewhere, or this session was renewed (a password change here): ask at once
          source?.close();
          setLive(false);
          reopen(0);
          return;
        }
        if (event.type === "sync") {
          setLive(true);
          delay = FIRST_RETRY_MS;
        }
        handler.current(event);
      };
      source.onerror = () => {
        setLive(false);
        if (source?.readyState === EventSource.CLOSED && !stopped) reopen();
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [channelId]);

  return { live };
}
