import { useSyncExternalStore } from "react";

/** The width below which the layout is the phone's (the CSS's `max-width: 720px`). */
export const NARROW = "(max-width: 720px)";

/**
 * One MediaQueryList for every row that asks: React reads the snapshot on every render of every
 * message row, and a `matchMedia` call there made the browser build and evaluate a new list each time.
 */
let list: MediaQueryList | null | undefined;
const query = () => {
  if (list === undefined) list = typeof window === "undefined" || !window.matchMedia ? null : window.matchMedia(NARROW);
  return list;
};

/** Whether the screen is a phone's width now (false on the server). */
export const narrowNow = () => query()?.matches ?? false;

const subscribe = (listener: () => void) => {
  const watched = query();
  watched?.addEventListener("change", listener);
  return () => watched?.removeEventListener("change", listener);
};

/** Whether the screen is a phone's width now (false on the server), and again when that changes. */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, narrowNow, () => false);
}
