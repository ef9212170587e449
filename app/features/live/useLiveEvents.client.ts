import { useEffect, useRef, useState } from "react";
import { listDevices } from "~/features/devices/devices.client";
import type { LiveEvent } from "~/features/live/types";
import { on } from "~/lib/events";

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/**
 * Subscribes to the page's live stream (server-sent events). The browser reconnects by itself after a
 * drop; each (re)connection starts with a "sync" event so the page can fetch what it missed. A stream
 * whose session was signed out ("signed-out", then the stream ends) or that the server refused outright
 * (the browser then stops) is checked: when the session ended the page is told so (api.client.ts),
 * otherwise the stream opens again, later each time. Back online, the page reads what it missed at once.
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
    // a try to open again is waiting for its time (not yet asking)
    let waiting = false;
    const reopen = (after = delay) => {
      waiting = true;
      retry = setTimeout(() => {
        waiting = false;
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
    // Back online: a stream that stayed open through the drop told of changes whose follow-up requests
    // failed then (the counts, the list), and nothing asked again; the page reads everything afresh as at
    // a "sync" (the stream itself stays: closing it would cut what it delivers now). A stream the
    // browser gave up on opens again at once instead of at its next, spaced-out try.
    const online = () => {
      if (stopped || !source) return;
      if (source.readyState === EventSource.OPEN) handler.current({ type: "sync" });
      else if (source.readyState === EventSource.CLOSED && waiting) {
        clearTimeout(retry);
        delay = FIRST_RETRY_MS;
        reopen(0);
      }
    };
    const stop = () => {
      stopped = true;
      window.removeEventListener("online", online);
      clearTimeout(retry);
      source?.close();
    };
    window.addEventListener("online", online);
    open();
    // (the page signing out itself: its stream's "signed-out" is its own doing, nothing to check)
    const unfollow = on("session:signing-out", stop);
    return () => {
      unfollow();
      stop();
    };
  }, [channelId]);

  return { live };
}
