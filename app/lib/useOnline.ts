import { useEffect, useRef, useState } from "react";

/** Whether the browser says it is online; follows its online and offline events. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine !== false);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}

/** After "online", the network may still be settling (a service worker's fetches, a proxy): a second's grace. */
const ONLINE_GRACE_MS = 1_000;

/** Calls `again` a second after the browser says it is back online, each time it does; null: nothing waits. */
export function useWhenBackOnline(again: (() => void) | null) {
  const latest = useRef(again);
  latest.current = again;
  const waiting = again !== null;
  useEffect(() => {
    if (!waiting) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const online = () => {
      clearTimeout(timer);
      timer = setTimeout(() => latest.current?.(), ONLINE_GRACE_MS);
    };
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      clearTimeout(timer);
    };
  }, [waiting]);
}
