import { useEffect, type MutableRefObject } from "react";

/** How often a conversation with a live message it could not open asks for it again. */
export const MISSED_RETRY_MS = 5_000;

/**
 * A live message of the open conversation this page could not open as it came (a request it needed
 * failed: the sender's new device's commit, a newcomer's profile): the earliest such message's time is
 * kept (`missedSince`), and the next catch-up starts just before it, so later live messages do not
 * step over it. Until a catch-up got it, one is tried every few seconds and when the browser is back
 * online. It was dropped for good, until a reload.
 */
export function noteMissed(missedSince: MutableRefObject<string | null>, created: string) {
  if (!missedSince.current || created < missedSince.current) missedSince.current = created;
}

/** The moment just before a message's time (`after` is exclusive), in PocketBase's format. */
export function justBefore(created: string): string {
  const at = Date.parse(created.replace(" ", "T"));
  return Number.isNaN(at) ? created : new Date(at - 1).toISOString().replace("T", " ");
}

export function useRetryMissed(missedSince: MutableRefObject<string | null>, catchUp: () => Promise<void>) {
  useEffect(() => {
    const again = () => {
      if (missedSince.current) void catchUp();
    };
    const timer = setInterval(again, MISSED_RETRY_MS);
    window.addEventListener("online", again);
    return () => {
      clearInterval(timer);
      window.removeEventListener("online", again);
    };
  }, [missedSince, catchUp]);
}
