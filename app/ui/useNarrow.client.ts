import { useSyncExternalStore } from "react";

/** The width below which the layout is the phone's (the CSS's `max-width: 720px`). */
export const NARROW = "(max-width: 720px)";

const query = () => (typeof window === "undefined" || !window.matchMedia ? null : window.matchMedia(NARROW));

/** Whether the screen is a phone's width now (false on the server). */
export function useNarrow(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const list = query();
      list?.addEventListener("change", listener);
      return () => list?.removeEventListener("change", listener);
    },
    () => query()?.matches ?? false,
    () => false,
  );
}
