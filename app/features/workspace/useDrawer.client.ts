import { useCallback, useEffect, useRef, useState } from "react";
import { focusRegion } from "~/ui/focusRegion";
import { useBackCloses } from "~/ui/useBackCloses.client";

/**
 * The channel drawer on narrow screens: the toggle says whether it is open (aria-expanded), Esc
 * closes it and gives focus back to the toggle, and so does the phone's Back (ADR 0061); closed because
 * a conversation was chosen or made, it leaves focus on the conversation.
 */
export function useDrawer() {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const openNow = useRef(open);
  openNow.current = open;

  const close = useCallback((returnFocus = true) => {
    setOpen(false);
    if (returnFocus) return toggleRef.current?.focus();
    // (a conversation chosen or made from the drawer: focus does not stay in the drawer as it hides)
    const main = document.querySelector<HTMLElement>("main");
    if (openNow.current && main && document.activeElement?.closest("#channel-sidebar")) focusRegion(main);
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      // A dialog open above the drawer takes its own Esc.
      if (document.querySelector('[aria-modal="true"], dialog[open]')) return;
      event.preventDefault();
      close();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, close]);

  // (over a conversation: at no conversation the drawer is the list itself, which Back shows again; a
  // conversation left from it leads there with the drawer still open, the list to choose from)
  const overConversation = typeof window !== "undefined" && window.location.pathname.startsWith("/c/");
  useBackCloses(open && overConversation, close, { staysOnMoves: true });

  const show = useCallback(() => setOpen(true), []);
  return { open, toggle: () => setOpen((o) => !o), show, close, toggleRef };
}
