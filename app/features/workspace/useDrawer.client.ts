import { useCallback, useEffect, useRef, useState } from "react";

/**
 * The channel drawer on narrow screens: the toggle says whether it is open (aria-expanded), Esc
 * closes it and gives focus back to the toggle.
 */
export function useDrawer() {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  const close = useCallback((returnFocus = true) => {
    setOpen(false);
    if (returnFocus) toggleRef.current?.focus();
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

  const show = useCallback(() => setOpen(true), []);
  return { open, toggle: () => setOpen((o) => !o), show, close, toggleRef };
}
